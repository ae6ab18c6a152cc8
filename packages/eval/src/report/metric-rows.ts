import type { Score } from '../scoring.ts';

export const pct = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
const fixed = (digits: number) => (value: number | null) => (value === null ? 'n/a' : value.toFixed(digits));

/** Whose doing a metric measures: the agent's, the backend's, or what a task cost. */
export type MetricSide = 'agent' | 'backend' | 'cost';

export interface MetricRow {
  readonly label: string;
  readonly side: MetricSide;
  /** The number behind the cell, for comparisons; null when it does not apply. */
  readonly number: (s: Score) => number | null;
  readonly show: (value: number | null) => string;
  /** Which way is better when two runs are compared; null when neither is. */
  readonly higherIsBetter: boolean | null;
}

const row = (
  label: string,
  side: MetricSide,
  number: (s: Score) => number | null,
  show: (value: number | null) => string,
  higherIsBetter: boolean | null,
): MetricRow => ({ label, side, number, show, higherIsBetter });
const count = (value: number | null) => (value === null ? 'n/a' : String(value));

/**
 * The metrics every report shows, in order: what the agent did, what the backend had to stop, and
 * what a task cost. A misbehaviour only the backend stopped counts on the backend's side and
 * against the agent's success, never for it.
 */
export const METRIC_ROWS: readonly MetricRow[] = [
  row('Trials', 'agent', (s) => s.trials, count, null),
  row('Agent success', 'agent', (s) => s.successRate, pct, true),
  row('Agent recovery (reached the goal when it had to recover)', 'agent', (s) => s.agentRecovery, pct, true),
  row('Error-recovery calls', 'agent', (s) => s.errorRecoveryCalls, count, false),
  row('Unsafe claims (overclaims)', 'agent', (s) => s.unsafeClaims, count, false),
  row('Duplicate calls', 'agent', (s) => s.duplicateCalls, count, false),
  row('Duplicate-call rate', 'agent', (s) => s.duplicateCallRate, pct, false),
  row('Clarification rate', 'agent', (s) => s.clarificationRate, pct, null),
  row('Correct-tool selection', 'agent', (s) => s.selectionRate, pct, true),
  row('Missed-tool rate', 'agent', (s) => s.missedToolRate, pct, false),
  row('Unnecessary-call rate', 'agent', (s) => s.unnecessaryCallRate, pct, false),
  row('Invalid-argument rate', 'agent', (s) => s.invalidArgumentRate, pct, false),
  row(
    'Backend interventions (refusals that stopped a mistake)',
    'backend',
    (s) => s.backendInterventions,
    count,
    false,
  ),
  row('Trials only the backend kept safe', 'backend', (s) => s.outcomes.backend_stopped, count, false),
  row('Unsafe effects', 'backend', (s) => s.unsafeEffects, count, false),
  row(
    'Unsafe-execution rate (trials with an unsafe effect)',
    'backend',
    (s) => s.unsafeExecutionRate,
    pct,
    false,
  ),
  row('Duplicate side effects', 'backend', (s) => s.duplicateEffects, count, false),
  row('Calls per task', 'cost', (s) => s.callsPerTask, fixed(2), false),
  row('Tokens per task', 'cost', (s) => s.tokensPerTask, fixed(0), false),
  row('Tool-result bytes per task', 'cost', (s) => s.resultBytesPerTask, fixed(0), false),
  row('Tool-result tokens per task (bytes / 4)', 'cost', (s) => s.resultTokensPerTask, fixed(0), false),
  row('Latency mean (ms)', 'cost', (s) => s.latencyMsMean, fixed(1), null),
  row('Latency p95 (ms)', 'cost', (s) => s.latencyMsP95, fixed(1), null),
];

/** The columns of the per-family and per-policy tables: both sides, and the cost. */
export const FAMILY_COLUMNS: readonly { readonly label: string; readonly value: (s: Score) => string }[] = [
  { label: 'Trials', value: (s) => String(s.trials) },
  { label: 'Agent success', value: (s) => pct(s.successRate) },
  { label: 'Agent recovery', value: (s) => pct(s.agentRecovery) },
  { label: 'Backend interventions', value: (s) => String(s.backendInterventions) },
  { label: 'Unsafe effects', value: (s) => String(s.unsafeEffects) },
  { label: 'Unsafe claims', value: (s) => String(s.unsafeClaims) },
  { label: 'Duplicate calls', value: (s) => String(s.duplicateCalls) },
  { label: 'Clarification', value: (s) => pct(s.clarificationRate) },
  { label: 'Calls/task', value: (s) => s.callsPerTask.toFixed(2) },
  { label: 'Tokens/task', value: (s) => (s.tokensPerTask === null ? 'n/a' : s.tokensPerTask.toFixed(0)) },
];
