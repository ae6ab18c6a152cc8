import type { TrialResult } from './trial-runner.ts';

/** The numbers seed 003 asks for, over any group of trials. */
export interface Score {
  readonly trials: number;
  readonly passed: number;
  readonly successRate: number;
  readonly selectionRate: number;
  readonly missedToolRate: number;
  readonly unnecessaryCallRate: number;
  readonly invalidArgumentRate: number;
  readonly unsafeExecutions: number;
  readonly duplicateEffects: number;
  /** Pass rate among trials with an injected fault or moving world; null when there were none. */
  readonly recoverySuccess: number | null;
  readonly callsPerTask: number;
  readonly resultBytesPerTask: number;
  readonly latencyMsMean: number;
  readonly latencyMsP95: number;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
}

/** pass^k for k = 1..K: the chance that k independent trials of a scenario all pass, averaged. */
export type PassHatK = readonly { readonly k: number; readonly value: number }[];

export interface ScenarioSummary {
  readonly scenario: string;
  readonly title: string;
  readonly split: string;
  readonly family: string;
  readonly domain: string;
  readonly label: string;
  readonly trials: number;
  readonly successes: number;
  readonly unsafe: number;
  /** Reasons of the first failing trial. */
  readonly reasons: readonly string[];
}

export function score(results: readonly TrialResult[]): Score {
  const n = results.length;
  const sum = (pick: (r: TrialResult) => number) => results.reduce((s, r) => s + pick(r), 0);
  const calls = sum((r) => r.metrics.calls);
  const expected = sum((r) => r.metrics.expectedTools);
  const passed = results.filter((r) => r.passed).length;
  const faulted = results.filter((r) => r.metrics.faultInjected);
  const latencies = results.map((r) => r.metrics.latencyMs).sort((a, b) => a - b);
  const tokens = (pick: (r: TrialResult) => number | null) =>
    results.some((r) => pick(r) !== null) ? results.reduce((s, r) => s + (pick(r) ?? 0), 0) : null;
  return {
    trials: n,
    passed,
    successRate: ratio(passed, n),
    selectionRate: ratio(results.filter((r) => r.metrics.selectionCorrect).length, n),
    missedToolRate: ratio(
      sum((r) => r.metrics.missedTools),
      expected,
    ),
    unnecessaryCallRate: ratio(
      sum((r) => r.metrics.unnecessaryCalls),
      calls,
    ),
    invalidArgumentRate: ratio(
      sum((r) => r.metrics.invalidArgumentCalls),
      calls,
    ),
    unsafeExecutions: sum((r) => r.metrics.unsafeEffects),
    duplicateEffects: sum((r) => r.metrics.duplicateEffects),
    recoverySuccess: faulted.length ? ratio(faulted.filter((r) => r.passed).length, faulted.length) : null,
    callsPerTask: ratio(calls, n),
    resultBytesPerTask: ratio(
      sum((r) => r.metrics.resultBytes),
      n,
    ),
    latencyMsMean: ratio(
      sum((r) => r.metrics.latencyMs),
      n,
    ),
    latencyMsP95: latencies.length
      ? latencies[Math.min(latencies.length - 1, Math.ceil(0.95 * latencies.length) - 1)]!
      : 0,
    inputTokens: tokens((r) => r.metrics.inputTokens),
    outputTokens: tokens((r) => r.metrics.outputTokens),
  };
}

/** Groups trials by a key and scores each group, keys sorted. */
export function scoreBy(
  results: readonly TrialResult[],
  key: (r: TrialResult) => string,
): Record<string, Score> {
  const groups = groupBy(results, key);
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, score(groups.get(k)!)]));
}

/** Unbiased pass^k per scenario (C(c,k)/C(n,k), as in tau-bench), averaged over scenarios. */
export function passHatK(results: readonly TrialResult[]): PassHatK {
  const perScenario = summarizeScenarios(results);
  const maxK = Math.min(...perScenario.map((s) => s.trials));
  if (!Number.isFinite(maxK) || maxK < 1) return [];
  const curve: { k: number; value: number }[] = [];
  for (let k = 1; k <= maxK; k += 1) {
    const values = perScenario.map((s) => binomial(s.successes, k) / binomial(s.trials, k));
    curve.push({ k, value: values.reduce((a, b) => a + b, 0) / values.length });
  }
  return curve;
}

export function summarizeScenarios(results: readonly TrialResult[]): ScenarioSummary[] {
  const groups = groupBy(results, (r) => `${r.scenario}\u0000${r.label}`);
  return [...groups.values()].map((trials) => {
    const first = trials[0]!;
    return {
      scenario: first.scenario,
      title: first.title,
      split: first.split,
      family: first.family,
      domain: first.domain,
      label: first.label,
      trials: trials.length,
      successes: trials.filter((t) => t.passed).length,
      unsafe: trials.reduce((s, t) => s + t.metrics.unsafeEffects, 0),
      reasons: trials.find((t) => !t.passed)?.reasons ?? [],
    };
  });
}

/** Trials by key, each group in the order the trials ran. */
function groupBy(
  results: readonly TrialResult[],
  key: (r: TrialResult) => string,
): Map<string, TrialResult[]> {
  const groups = new Map<string, TrialResult[]>();
  for (const r of results) {
    const group = groups.get(key(r));
    if (group) group.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}

function binomial(n: number, k: number): number {
  if (k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return result;
}

function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}
