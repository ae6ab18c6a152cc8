import { doNothingAgent } from './agents/do-nothing-agent.ts';
import type { AgentKind, EvalAgent } from './agents/eval-agent.ts';
import type { EvalWorld } from './eval-world.ts';
import type { ReleaseFacts } from './release-facts.ts';
import type { Comparison } from './report/comparison.ts';
import type { LoadedScenario } from './scenario-schema.ts';
import {
  type PassHatK,
  passHatK,
  RESULT_TOKEN_METHOD,
  type ScenarioSummary,
  type Score,
  score,
  scoreBy,
  summarizeScenarios,
} from './scoring.ts';
import type { SecondOpinionJudge } from './second-opinion.ts';
import { type SecondOpinionSummary, summarizeSecondOpinions } from './second-opinion-summary.ts';
import type { TrialIsolation } from './trial-isolation.ts';
import { runTrial, type TrialResult } from './trial-runner.ts';

export interface EvaluationOptions {
  readonly world: EvalWorld;
  readonly scenarios: readonly LoadedScenario[];
  /** One agent, or several (the adversarial policies), each run over every scenario. */
  readonly agents: readonly EvalAgent[];
  readonly trials: number;
  readonly trialTimeoutMs?: number;
  /** Called after every trial, for progress display. */
  readonly onTrial?: (done: number, total: number, result: TrialResult) => void;
  /** Extra facts for the report header (model, database, filter). */
  readonly about?: Record<string, string>;
  /** Also run the do-nothing baseline once per scenario (default true). */
  readonly baseline?: boolean;
  /** A judge model asked about each agent trial's final message, reported apart (`--judge-model`). */
  readonly secondOpinion?: SecondOpinionJudge;
}

export const REPORT_FORMAT = 'toolgate-eval/2';

/** Everything one evaluation run produced: the JSON results file is exactly this. */
export interface EvaluationReport {
  readonly format: typeof REPORT_FORMAT;
  readonly agent: AgentKind;
  readonly labels: readonly string[];
  readonly trialsPerScenario: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly about: Record<string, string>;
  /** The contract, scenario set and implementation this run measured (absent when not given). */
  readonly release?: ReleaseFacts;
  /** Whether every module's external systems were reset before each trial (absent when not known). */
  readonly isolation?: TrialIsolation;
  readonly overall: Score;
  readonly bySplit: Record<string, Score>;
  /** Family -> split -> score, so dev and holdout sit side by side. */
  readonly byFamily: Record<string, Record<string, Score>>;
  /** Family -> score over both splits. */
  readonly familyTotals: Record<string, Score>;
  readonly byDomain: Record<string, Score>;
  readonly byLabel: Record<string, Score>;
  readonly passHatK: Record<string, PassHatK>;
  readonly scenarios: readonly ScenarioSummary[];
  readonly trials: readonly TrialResult[];
  /** What changed since an earlier run (`--compare`). */
  readonly comparison?: Comparison;
  /**
   * The do-nothing baseline over the same scenarios (an agent that answers without calling a
   * tool), scored apart: what a score is worth above doing nothing.
   */
  readonly baseline?: Score;
  /** How tool-result tokens are estimated. */
  readonly resultTokenMethod?: string;
  /**
   * The judge model's second opinion on the final messages (`--judge-model`): agreement with the
   * claim reader and its own tokens. Advisory: no score above counts it.
   */
  readonly secondOpinion?: SecondOpinionSummary;
}

/** Runs every scenario `trials` times per agent against one world, resetting it between trials. */
export async function runEvaluation(options: EvaluationOptions): Promise<EvaluationReport> {
  const startedAt = new Date();
  const started = performance.now();
  const total = options.scenarios.length * options.agents.length * options.trials;
  // The baseline runs first, so the world is left as the agents' last trial made it.
  let baseline: TrialResult[] | null = null;
  if (options.baseline !== false) {
    baseline = [];
    for (const scenario of options.scenarios) {
      baseline.push(
        await runTrial({
          world: options.world,
          scenario,
          agent: doNothingAgent,
          trial: 1,
          timeoutMs: 30_000,
        }),
      );
    }
  }
  const results: TrialResult[] = [];
  for (const agent of options.agents) {
    for (const scenario of options.scenarios) {
      for (let trial = 1; trial <= options.trials; trial += 1) {
        const result = await runTrial({
          world: options.world,
          scenario,
          agent,
          trial,
          timeoutMs: options.trialTimeoutMs ?? 120_000,
          ...(options.secondOpinion ? { secondOpinion: options.secondOpinion } : {}),
        });
        results.push(result);
        options.onTrial?.(results.length, total, result);
      }
    }
  }
  const report = buildReport(results, options, startedAt, performance.now() - started);
  return baseline ? { ...report, baseline: score(baseline) } : report;
}

export function buildReport(
  results: readonly TrialResult[],
  options: Pick<EvaluationOptions, 'agents' | 'trials' | 'about'>,
  startedAt: Date,
  durationMs: number,
): EvaluationReport {
  const families = [...new Set(results.map((r) => r.family))].sort();
  const byFamily: Record<string, Record<string, Score>> = {};
  for (const family of families) {
    byFamily[family] = scoreBy(
      results.filter((r) => r.family === family),
      (r) => r.split,
    );
  }
  const splits = [...new Set(results.map((r) => r.split))].sort();
  const curves: Record<string, PassHatK> = { all: passHatK(results) };
  for (const split of splits) curves[split] = passHatK(results.filter((r) => r.split === split));
  const secondOpinion = summarizeSecondOpinions(results);
  return {
    format: REPORT_FORMAT,
    agent: options.agents[0]?.kind ?? 'reference',
    labels: options.agents.map((a) => a.label),
    trialsPerScenario: options.trials,
    startedAt: startedAt.toISOString(),
    durationMs,
    about: options.about ?? {},
    overall: score(results),
    bySplit: scoreBy(results, (r) => r.split),
    byFamily,
    familyTotals: scoreBy(results, (r) => r.family),
    byDomain: scoreBy(results, (r) => r.domain),
    byLabel: scoreBy(results, (r) => r.label),
    passHatK: curves,
    scenarios: summarizeScenarios(results),
    trials: results,
    resultTokenMethod: RESULT_TOKEN_METHOD,
    ...(secondOpinion ? { secondOpinion } : {}),
  };
}
