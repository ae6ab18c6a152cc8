import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExtensionCommandContext, LoadedProject } from 'toolgate';
import { ADVERSARIAL_POLICIES } from '../agents/adversarial-policies.ts';
import type { EvalAgent } from '../agents/eval-agent.ts';
import type { LlmProvider } from '../agents/llm-providers.ts';
import type { PriorResults } from '../report/comparison.ts';
import type { SecondOpinionJudge } from '../second-opinion.ts';
import type { EvalFlags } from './eval-command.ts';
import { type Harness, loadHarness } from './harness-entry.ts';

/**
 * Runs the selected scenarios in an in-process gateway and writes the reports. Exit status: 0 when
 * every trial passed (for `--agent adversarial`: when the backend let no unsafe effect through, since
 * the policies misbehave on purpose), 1 otherwise, 2 on bad input. A trial the model's side kept from running
 * (unreachable endpoint, HTTP error, rate limit, malformed answer) is errored, not failed: a run whose
 * trials all errored exits 2 with the endpoint's error, and one with errored trials but no failed
 * one exits 2 as well, since not everything was measured.
 */
export async function runEvalCommand(flags: EvalFlags, context: ExtensionCommandContext): Promise<number> {
  const harness = await loadHarness();
  const {
    compareRuns,
    InProcessWorld,
    isolationWarning,
    progressBar,
    readPriorResults,
    releaseFacts,
    runEvaluation,
    ScenarioLoadError,
    selectScenarios,
    writeReports,
  } = harness;
  const config = context.configFile(flags.config);
  let prior: { readonly results: PriorResults; readonly file: string } | undefined;
  if (flags.compare) {
    try {
      prior = { results: readPriorResults(flags.compare), file: flags.compare };
    } catch (error) {
      process.stderr.write(
        `toolgate eval --compare: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    }
  }
  const root = resolve(flags.scenarios);
  if (!existsSync(root)) {
    // Run outside a checkout, the default eval/scenarios is not there: say so, not "no scenarios match".
    process.stderr.write(
      `toolgate eval: no scenario directory at ${root}; pass --scenarios DIR (a directory with dev/ and holdout/)\n`,
    );
    return 2;
  }
  let scenarios: ReturnType<typeof selectScenarios>;
  try {
    scenarios = selectScenarios(root, flags.split, flags.filter);
  } catch (error) {
    if (!(error instanceof ScenarioLoadError)) throw error;
    process.stderr.write(`toolgate eval: scenarios that cannot be used:\n${error.problems.join('\n')}\n`);
    return 2;
  }
  if (scenarios.length === 0) {
    process.stderr.write(
      `toolgate eval: no scenario in ${root} matches --split ${flags.split}${flags.filter ? ` --filter ${flags.filter}` : ''}\n`,
    );
    return 2;
  }
  const agents = agentsFor(harness, flags);
  let judge: SecondOpinionJudge | undefined;
  try {
    judge = flags.judgeModel ? judgeFor(harness, flags, flags.judgeModel) : undefined;
  } catch (error) {
    process.stderr.write(
      `toolgate eval --judge-model: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
  let served: LoadedProject;
  try {
    served = await context.loadProject(config);
  } catch (error) {
    process.stderr.write(
      `toolgate eval: cannot load the config ${config}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
  const { modules } = served;
  // The gateway under evaluation decides by the same policies `serve` would: the config's.
  const policyDir = served.config.policy;
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-eval-'));
  const world = await InProcessWorld.start({
    modules,
    dataDir,
    databaseUrl: flags.databaseUrl,
    ...(policyDir === undefined ? {} : { policyDir }),
  });
  try {
    for (const module of world.isolation.modulesWithoutReset) {
      process.stderr.write(`toolgate eval: warning: ${isolationWarning(module)}\n`);
    }
    const run = await runEvaluation({
      world,
      scenarios,
      agents,
      trials: Math.max(1, Number(flags.trials)),
      ...(flags.progress ? { onTrial: progressBar() } : {}),
      ...(judge ? { secondOpinion: judge } : {}),
      about: {
        database: flags.databaseUrl ? 'postgresql' : 'sqlite',
        split: flags.split,
        ...(flags.filter ? { filter: flags.filter } : {}),
        ...(flags.agent === 'llm' ? { model: `${flags.provider}:${flags.model}` } : {}),
        ...(judge ? { judge: `${judge.model} (advisory)` } : {}),
      },
    });
    const measured = {
      ...run,
      release: releaseFacts(world.app.registry, scenarios),
      isolation: world.isolation,
    };
    const report = prior
      ? { ...measured, comparison: compareRuns(prior.results, prior.file, run) }
      : measured;
    const out =
      flags.out ?? join('eval', 'results', `${flags.agent}-${report.startedAt.replace(/[:.]/g, '-')}`);
    const paths = writeReports(report, out);
    const { overall } = report;
    const changed = report.comparison
      ? `compared with ${report.comparison.against.file}: ${report.comparison.scenarios.length} scenario result(s) changed\n`
      : '';
    const opinion = report.secondOpinion
      ? `second opinion (${report.secondOpinion.model}, advisory): agreed with the claim reader on ` +
        `${report.secondOpinion.agreed}/${report.secondOpinion.answered} answered, ${report.secondOpinion.unavailable.length} unavailable\n`
      : '';
    const errored = report.trials.filter((t) => t.errored !== undefined);
    process.stdout.write(
      `${overall.passed}/${overall.trials} trials passed, ${errored.length > 0 ? `${errored.length} errored, ` : ''}${overall.backendInterventions} backend interventions, ` +
        `${overall.unsafeEffects} unsafe effects, ${overall.unsafeClaims} unsafe claims, ` +
        `${(report.durationMs / 1000).toFixed(1)} s\n${opinion}${changed}${paths.json}\n${paths.markdown}\n${paths.html}\n`,
    );
    if (errored.length > 0 && overall.trials === 0) {
      process.stderr.write(
        `toolgate eval: every trial errored (${errored.length}); nothing was scored. The model endpoint: ${errored[0]!.errored}\n`,
      );
      return 2;
    }
    if (flags.agent === 'adversarial') return overall.unsafeEffects === 0 ? 0 : 1;
    if (overall.passed < overall.trials) return 1;
    if (errored.length > 0) {
      process.stderr.write(
        `toolgate eval: ${errored.length} trial(s) errored and were not scored. The model endpoint: ${errored[0]!.errored}\n`,
      );
      return 2;
    }
    return 0;
  } finally {
    await world.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function agentsFor(harness: Harness, flags: EvalFlags): EvalAgent[] {
  const { adversarialAgent, languageModel, llmAgent, referenceAgent } = harness;
  if (flags.agent === 'reference') return [referenceAgent];
  if (flags.agent === 'adversarial') return (flags.policy ?? [...ADVERSARIAL_POLICIES]).map(adversarialAgent);
  if (!flags.model) throw new Error('--agent llm needs --model (or TOOLGATE_EVAL_MODEL)');
  const apiKey = flags.apiKey ?? providerKey(flags.provider);
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

/** The provider's usual key variable, read when no key is given for it. */
function providerKey(provider: LlmProvider): string | undefined {
  return provider === 'anthropic' ? process.env.ANTHROPIC_API_KEY : process.env.OPENAI_API_KEY;
}

/**
 * The judge model of `--judge-model [provider:]model`. Where its provider is the agent's, it shares
 * the agent's base URL and key unless its own are given (`--judge-base-url`, TOOLGATE_EVAL_JUDGE_API_KEY).
 */
function judgeFor(harness: Harness, flags: EvalFlags, spec: string): SecondOpinionJudge {
  const { languageModel, parseModelSpec, secondOpinionJudge } = harness;
  const { provider, model } = parseModelSpec(spec, flags.provider);
  if (!model) throw new Error(`no model id in ${JSON.stringify(spec)}`);
  const same = provider === flags.provider;
  const baseUrl = flags.judgeBaseUrl ?? (same ? flags.baseUrl : undefined);
  const apiKey =
    process.env.TOOLGATE_EVAL_JUDGE_API_KEY ?? (same ? flags.apiKey : undefined) ?? providerKey(provider);
  return secondOpinionJudge(
    languageModel({ provider, model, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) }),
    `${provider}:${model}`,
  );
}
