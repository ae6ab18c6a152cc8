import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { referenceDomains } from '../domains/reference-domains.ts';
import {
  ADVERSARIAL_POLICIES,
  type AdversarialPolicy,
  adversarialAgent,
} from '../eval/agents/adversarial-agent.ts';
import { AGENT_KINDS, type AgentKind, type EvalAgent } from '../eval/agents/eval-agent.ts';
import { llmAgent } from '../eval/agents/llm-agent.ts';
import { LLM_PROVIDERS, type LlmProvider, languageModel } from '../eval/agents/llm-model.ts';
import { referenceAgent } from '../eval/agents/reference-agent.ts';
import { runEvaluation } from '../eval/evaluation.ts';
import { InProcessWorld } from '../eval/in-process-world.ts';
import { progressBar } from '../eval/progress-bar.ts';
import { writeReports } from '../eval/report/write-reports.ts';
import { ScenarioLoadError } from '../eval/scenario-loader.ts';
import { selectScenarios } from '../eval/scenario-selection.ts';

interface EvalFlags {
  agent: AgentKind;
  policy?: AdversarialPolicy[];
  provider: LlmProvider;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  systemPrompt?: string;
  maxSteps: string;
  temperature?: string;
  trials: string;
  split: 'dev' | 'holdout' | 'all';
  filter?: string;
  scenarios: string;
  out?: string;
  databaseUrl?: string;
  progress: boolean;
}

/** `toolgate eval`: runs the scenarios against an in-process gateway and writes the reports. */
export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description('Run the evaluation scenarios against a fresh gateway and report how the agent did.')
    .addOption(
      new Option('--agent <kind>', 'who works the scenarios').choices(AGENT_KINDS).default('reference'),
    )
    .addOption(
      new Option('--policy <names...>', 'adversarial policies (default: all)').choices(ADVERSARIAL_POLICIES),
    )
    .addOption(
      new Option('--provider <name>', 'llm API flavour')
        .choices(LLM_PROVIDERS)
        .env('TOOLGATE_EVAL_PROVIDER')
        .default('openai-compatible'),
    )
    .addOption(new Option('--model <id>', 'llm model id').env('TOOLGATE_EVAL_MODEL'))
    .addOption(
      new Option('--base-url <url>', 'OpenAI-compatible base URL (OpenAI, Ollama, vLLM)').env(
        'TOOLGATE_EVAL_BASE_URL',
      ),
    )
    .addOption(new Option('--api-key <key>', 'llm API key').env('TOOLGATE_EVAL_API_KEY'))
    .option('--system-prompt <file>', 'replace the default system prompt with this file')
    .option('--max-steps <n>', 'most model steps per scenario', '12')
    .option('--temperature <t>', 'sampling temperature')
    .option('--trials <k>', 'trials per scenario (pass^k needs k > 1)', '1')
    .addOption(
      new Option('--split <split>', 'which scenarios').choices(['dev', 'holdout', 'all']).default('all'),
    )
    .option('--filter <text>', 'only scenarios whose id, family or domain contains this')
    .option('--scenarios <dir>', 'scenario root with dev/ and holdout/', 'eval/scenarios')
    .option('--out <dir>', 'where results.json, summary.md and report.html go')
    .option('--database-url <url>', 'run the gateway on PostgreSQL instead of a temp SQLite')
    .option('--no-progress', 'no progress output')
    .action(async (flags: EvalFlags) => {
      process.exitCode = await runEvalCommand(flags);
    });
}

async function runEvalCommand(flags: EvalFlags): Promise<number> {
  let scenarios: ReturnType<typeof selectScenarios>;
  try {
    scenarios = selectScenarios(resolve(flags.scenarios), flags.split, flags.filter);
  } catch (error) {
    if (!(error instanceof ScenarioLoadError)) throw error;
    process.stderr.write(`toolgate eval: scenarios that cannot be used:\n${error.problems.join('\n')}\n`);
    return 2;
  }
  if (scenarios.length === 0) {
    process.stderr.write('no scenarios match\n');
    return 2;
  }
  const agents = agentsFor(flags);
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-eval-'));
  const world = await InProcessWorld.start({
    domains: referenceDomains,
    dataDir,
    databaseUrl: flags.databaseUrl,
  });
  try {
    const report = await runEvaluation({
      world,
      scenarios,
      agents,
      trials: Math.max(1, Number(flags.trials)),
      ...(flags.progress ? { onTrial: progressBar() } : {}),
      about: {
        database: flags.databaseUrl ? 'postgresql' : 'sqlite',
        split: flags.split,
        ...(flags.filter ? { filter: flags.filter } : {}),
        ...(flags.agent === 'llm' ? { model: `${flags.provider}:${flags.model}` } : {}),
      },
    });
    const out =
      flags.out ?? join('eval', 'results', `${flags.agent}-${report.startedAt.replace(/[:.]/g, '-')}`);
    const paths = writeReports(report, out);
    const { overall } = report;
    process.stdout.write(
      `${overall.passed}/${overall.trials} trials passed, ${overall.unsafeExecutions} unsafe executions, ` +
        `${(report.durationMs / 1000).toFixed(1)} s\n${paths.json}\n${paths.markdown}\n${paths.html}\n`,
    );
    return overall.passed === overall.trials ? 0 : 1;
  } finally {
    await world.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function agentsFor(flags: EvalFlags): EvalAgent[] {
  if (flags.agent === 'reference') return [referenceAgent];
  if (flags.agent === 'adversarial') return (flags.policy ?? [...ADVERSARIAL_POLICIES]).map(adversarialAgent);
  if (!flags.model) throw new Error('--agent llm needs --model (or TOOLGATE_EVAL_MODEL)');
  const apiKey =
    flags.apiKey ??
    (flags.provider === 'anthropic' ? process.env.ANTHROPIC_API_KEY : process.env.OPENAI_API_KEY);
  return [
    llmAgent({
      model: languageModel({
        provider: flags.provider,
        model: flags.model,
        ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
        ...(apiKey ? { apiKey } : {}),
      }),
      label: flags.model,
      maxSteps: Math.max(1, Number(flags.maxSteps)),
      ...(flags.systemPrompt ? { systemPrompt: readFileSync(flags.systemPrompt, 'utf8') } : {}),
      ...(flags.temperature !== undefined ? { temperature: Number(flags.temperature) } : {}),
    }),
  ];
}
