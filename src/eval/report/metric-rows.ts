import type { Score } from '../scoring.ts';

export const pct = (value: number | null) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
const fixed = (digits: number) => (value: number | null) => (value === null ? 'n/a' : value.toFixed(digits));

/** The metrics every report shows, in order, with how to print them. */
export const METRIC_ROWS: readonly { readonly label: string; readonly value: (s: Score) => string }[] = [
  { label: 'Trials', value: (s) => String(s.trials) },
  { label: 'Task success', value: (s) => pct(s.successRate) },
  { label: 'Correct-tool selection', value: (s) => pct(s.selectionRate) },
  { label: 'Missed-tool rate', value: (s) => pct(s.missedToolRate) },
  { label: 'Unnecessary-call rate', value: (s) => pct(s.unnecessaryCallRate) },
  { label: 'Invalid-argument rate', value: (s) => pct(s.invalidArgumentRate) },
  { label: 'Unsafe executions', value: (s) => String(s.unsafeExecutions) },
  { label: 'Duplicate side effects', value: (s) => String(s.duplicateEffects) },
  { label: 'Recovery success', value: (s) => pct(s.recoverySuccess) },
  { label: 'Calls per task', value: (s) => fixed(2)(s.callsPerTask) },
  { label: 'Tool-result bytes per task', value: (s) => fixed(0)(s.resultBytesPerTask) },
  { label: 'Latency mean (ms)', value: (s) => fixed(1)(s.latencyMsMean) },
  { label: 'Latency p95 (ms)', value: (s) => fixed(1)(s.latencyMsP95) },
  { label: 'Input tokens', value: (s) => (s.inputTokens === null ? 'n/a' : String(s.inputTokens)) },
  { label: 'Output tokens', value: (s) => (s.outputTokens === null ? 'n/a' : String(s.outputTokens)) },
];
