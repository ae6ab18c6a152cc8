import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EvaluationReport } from '../evaluation.ts';
import type { Score } from '../scoring.ts';
import { METRIC_ROWS, type MetricRow } from './metric-rows.ts';
import { compareVersions, type VersionScore } from './version-comparison.ts';

/** One metric in one scope (all, a split, a family) before and after. */
export interface MetricChange {
  readonly scope: string;
  readonly metric: string;
  readonly before: string;
  readonly after: string;
  /** true better, false worse, null when it moved without a better direction or did not move. */
  readonly better: boolean | null;
  readonly changed: boolean;
}

/** A scenario (per agent label) whose result or reasons differ between the runs. */
export interface ScenarioChange {
  readonly scenario: string;
  readonly label: string;
  readonly before: string;
  readonly after: string;
  /** Reasons the new run gives that the old did not, and the other way round. */
  readonly newReasons: readonly string[];
  readonly goneReasons: readonly string[];
  /** Trials, paired by their number, that passed in one run and failed in the other. */
  readonly flipped: readonly { readonly trial: number; readonly before: boolean; readonly after: boolean }[];
}

/** What changed between an earlier results.json and this run. */
export interface Comparison {
  readonly against: { readonly file: string; readonly startedAt: string; readonly agent: string };
  readonly metrics: readonly MetricChange[];
  readonly scenarios: readonly ScenarioChange[];
  readonly unchangedScenarios: number;
  /**
   * Selection and success per contract version of a tool, when the two runs were served different
   * versions of it; absent when both were served the same.
   */
  readonly versions?: readonly VersionScore[];
}

/** Only what a comparison reads; older formats lack some scores, which then show as n/a. */
const priorSchema = z.looseObject({
  format: z.string().startsWith('toolgate-eval/'),
  startedAt: z.string(),
  agent: z.string(),
  overall: z.record(z.string(), z.unknown()),
  bySplit: z.record(z.string(), z.record(z.string(), z.unknown())),
  familyTotals: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  scenarios: z.array(
    z.looseObject({
      scenario: z.string(),
      label: z.string(),
      trials: z.number(),
      successes: z.number(),
      reasons: z.array(z.string()),
    }),
  ),
  trials: z
    .array(
      z.looseObject({
        scenario: z.string(),
        label: z.string(),
        trial: z.number(),
        passed: z.boolean(),
        metrics: z.looseObject({ selectionCorrect: z.boolean().optional() }).optional(),
        servedVersions: z.record(z.string(), z.array(z.string())).optional(),
      }),
    )
    .optional(),
});
export type PriorResults = z.infer<typeof priorSchema>;

/** Reads an earlier run's results: a results.json, or the directory holding one. */
export function readPriorResults(path: string): PriorResults {
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, 'results.json') : path;
  const parsed = priorSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success)
    throw new Error(`${file} is not a toolgate eval results.json: ${parsed.error.message}`);
  return parsed.data;
}

/** A metric of a score that may come from an older format, where it can be missing altogether. */
function numberOf(row: MetricRow, score: Score): number | null {
  try {
    const value = row.number(score);
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** Per scope and metric, and per scenario, what moved from the earlier run to this one. */
export function compareRuns(prior: PriorResults, file: string, report: EvaluationReport): Comparison {
  const scopes: [string, Record<string, unknown> | undefined, Score | undefined][] = [
    ['all', prior.overall, report.overall],
    ...Object.keys({ ...prior.bySplit, ...report.bySplit }).map(
      (split) =>
        [split, prior.bySplit[split], report.bySplit[split]] as [
          string,
          Record<string, unknown> | undefined,
          Score | undefined,
        ],
    ),
    ...Object.keys({ ...prior.familyTotals, ...report.familyTotals }).map(
      (family) =>
        [family, prior.familyTotals?.[family], report.familyTotals[family]] as [
          string,
          Record<string, unknown> | undefined,
          Score | undefined,
        ],
    ),
  ];
  const metrics = scopes.flatMap(([scope, before, after]) =>
    METRIC_ROWS.map((row) => {
      const a = before ? numberOf(row, before as unknown as Score) : null;
      const now = after ? numberOf(row, after) : null;
      const changed = a !== now;
      const better =
        !changed || a === null || now === null || row.higherIsBetter === null
          ? null
          : now > a === row.higherIsBetter;
      return { scope, metric: row.label, before: row.show(a), after: row.show(now), better, changed };
    }),
  );
  // Runs of the same agents (the adversarial policies) pair by scenario and label; runs of different
  // agents (two models) pair by scenario alone, so each scenario shows once.
  const labels = (list: readonly { label: string }[]) =>
    [...new Set(list.map((s) => s.label))].sort().join('\u0000');
  const sameAgents = labels(prior.scenarios) === labels(report.scenarios);
  const key = (s: { scenario: string; label: string }) =>
    sameAgents ? `${s.scenario}\u0000${s.label}` : s.scenario;
  const trialKey = (t: { scenario: string; label: string; trial: number }) => `${key(t)}\u0000${t.trial}`;
  const priorTrials = new Map((prior.trials ?? []).map((t) => [trialKey(t), t.passed]));
  const before = new Map(prior.scenarios.map((s) => [key(s), s]));
  const after = new Map(report.scenarios.map((s) => [key(s), s]));
  const scenarios: ScenarioChange[] = [];
  let unchanged = 0;
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const old = before.get(id);
    const now = after.get(id);
    const gone = (old?.reasons ?? []).filter((r) => !now?.reasons.includes(r));
    const added = (now?.reasons ?? []).filter((r) => !old?.reasons.includes(r));
    const result = (s: typeof old | typeof now) => (s ? `${s.successes}/${s.trials} passed` : 'not run');
    const flipped = report.trials
      .filter(
        (t) => key(t) === id && priorTrials.has(trialKey(t)) && priorTrials.get(trialKey(t)) !== t.passed,
      )
      .map((t) => ({ trial: t.trial, before: priorTrials.get(trialKey(t))!, after: t.passed }));
    if (result(old) === result(now) && gone.length === 0 && added.length === 0 && flipped.length === 0) {
      unchanged += 1;
      continue;
    }
    const any = (now ?? old)!;
    scenarios.push({
      scenario: any.scenario,
      label: any.label,
      before: result(old),
      after: result(now),
      newReasons: added,
      goneReasons: gone,
      flipped,
    });
  }
  const versions = compareVersions(prior.trials ?? [], report.trials);
  return {
    against: { file, startedAt: prior.startedAt, agent: prior.agent },
    metrics,
    scenarios: scenarios.sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    unchangedScenarios: unchanged,
    ...(versions ? { versions } : {}),
  };
}
