import { type Command, Option } from 'commander';
import {
  ADVERSARIAL_POLICIES,
  type AdversarialPolicy,
  AGENT_KINDS,
  type AgentKind,
  LLM_PROVIDERS,
  type LlmProvider,
} from './eval-flag-choices.ts';

export interface EvalFlags {
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
  config?: string;
  compare?: string;
  judgeModel?: string;
  judgeBaseUrl?: string;
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
    .addOption(
      new Option(
        '--api-key <key>',
        'llm API key; prefer TOOLGATE_EVAL_API_KEY: a flag is visible to other users in the process list',
      ).env('TOOLGATE_EVAL_API_KEY'),
    )
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
    .option(
      '--config <file>',
      'evaluate the modules of this config instead of the demo (TOOLGATE_CONFIG; default ./toolgate.config.*, else the demo)',
    )
    .option(
      '--compare <results>',
      'show what changed since an earlier run (its results.json or its directory)',
    )
    .addOption(
      new Option(
        '--judge-model <spec>',
        'advisory second opinion on each final message: [provider:]model (provider defaults to --provider); reported apart, never changes a verdict',
      ).env('TOOLGATE_EVAL_JUDGE_MODEL'),
    )
    .addOption(
      new Option(
        '--judge-base-url <url>',
        "the judge model's OpenAI-compatible base URL (default: --base-url when the provider is the same); key in TOOLGATE_EVAL_JUDGE_API_KEY",
      ).env('TOOLGATE_EVAL_JUDGE_BASE_URL'),
    )
    .option('--no-progress', 'no progress output')
    .action(async (flags: EvalFlags, command: Command) => {
      if (command.getOptionValueSource('apiKey') === 'cli') {
        process.stderr.write(
          'toolgate eval: --api-key is visible to other users in the process list; set TOOLGATE_EVAL_API_KEY instead.\n',
        );
      }
      const { runEvalCommand } = await import('./eval-run.ts');
      process.exitCode = await runEvalCommand(flags);
    });
}
