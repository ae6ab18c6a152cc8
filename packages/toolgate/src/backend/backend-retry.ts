import type { AttemptFailure, AttemptVerdict, BackendResult } from './backend-failure.ts';

/** How many attempts one backend call may make and how long it may wait between them. */
export interface RetryPolicy {
  /** Attempts in total, the first included (1 = never retry). */
  readonly attempts: number;
  /** The back-off ceiling before the first retry; it doubles per retry. */
  readonly baseDelayMs: number;
  /** The longest wait between two attempts, a server's Retry-After included. */
  readonly maxDelayMs: number;
}

const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  attempts: 3,
  baseDelayMs: 50,
  maxDelayMs: 1000,
});

/** More attempts than this turn a failing service into a traffic amplifier. */
const MAX_ATTEMPTS = 10;

/** Fills the defaults; throws (a programmer error) on a policy that could loop or wait without bound. */
export function resolveRetryPolicy(retry: Partial<RetryPolicy> = {}): RetryPolicy {
  const policy: RetryPolicy = Object.freeze({
    attempts: retry.attempts ?? DEFAULT_RETRY_POLICY.attempts,
    baseDelayMs: retry.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: retry.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  });
  const problems: string[] = [];
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1 || policy.attempts > MAX_ATTEMPTS) {
    problems.push(`retry.attempts must be an integer from 1 to ${MAX_ATTEMPTS}`);
  }
  if (!Number.isFinite(policy.baseDelayMs) || policy.baseDelayMs < 0) {
    problems.push('retry.baseDelayMs must be a finite number >= 0');
  }
  if (!Number.isFinite(policy.maxDelayMs) || policy.maxDelayMs < policy.baseDelayMs) {
    problems.push('retry.maxDelayMs must be a finite number >= retry.baseDelayMs');
  }
  if (problems.length > 0) throw new Error(`http backend: ${problems.join('; ')}`);
  return policy;
}

/**
 * The wait before retry number `retry` (0 = the first retry): the service's Retry-After when it sent one,
 * otherwise full jitter over `min(maxDelayMs, baseDelayMs * 2^retry)`. Null when the wait does not fit the
 * budget — longer than `maxDelayMs`, or ending at or past the deadline, where no attempt could follow.
 */
export function retryDelayMs(
  policy: RetryPolicy,
  retry: number,
  retryAfterMs: number | null,
  deadline: number | null,
  now: number,
  random: () => number = Math.random,
): number | null {
  const delay =
    retryAfterMs ?? Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry));
  if (delay > policy.maxDelayMs) return null;
  if (deadline !== null && now + delay >= deadline) return null;
  return delay;
}

/**
 * Sleeps `ms` unless `signal` aborts first. Resolves true when the wait ran out, false as soon as the
 * signal aborts (at once if it already has), so a cancelled caller is never kept waiting by back-off.
 */
export function waitForRetry(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What bounds a call's attempts besides the policy. */
export interface RetryBudget {
  readonly signal: AbortSignal;
  /** Epoch milliseconds; null when only the signal bounds the call. */
  readonly deadline: number | null;
  /** Cap per attempt; null: what remains until the deadline, or DEFAULT_ATTEMPT_TIMEOUT_MS without one. */
  readonly attemptTimeoutMs: number | null;
}

const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

/**
 * Runs one attempt under a signal that aborts at the budget's signal or at the attempt's timeout, and
 * names which one cut it: either way the request may already have reached the service.
 */
async function attemptWithin<T>(
  budget: RetryBudget,
  send: (signal: AbortSignal) => Promise<AttemptVerdict<T>>,
): Promise<AttemptVerdict<T>> {
  const remaining = budget.deadline === null ? DEFAULT_ATTEMPT_TIMEOUT_MS : budget.deadline - Date.now();
  const timeoutMs = Math.max(1, Math.min(budget.attemptTimeoutMs ?? remaining, remaining));
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), timeoutMs);
  try {
    const verdict = await send(AbortSignal.any([budget.signal, timer.signal]));
    if (verdict.kind === 'final') return verdict;
    const reason = budget.signal.aborted
      ? 'the caller cancelled the call'
      : timer.signal.aborted
        ? `no answer within ${timeoutMs} ms`
        : null;
    return reason === null
      ? verdict
      : { kind: 'failure', failure: { reason, reach: 'maybe', retryAfterMs: null } };
  } finally {
    clearTimeout(timeout);
  }
}

/**
 * Runs attempts until one answers, the policy's attempts run out, a wait does not fit the budget, or the
 * signal aborts. A failure that may have been applied is retried only when `repeatable`; a connect
 * failure sent nothing, so it is retried for any request.
 */
export async function runAttempts<T>(
  policy: RetryPolicy,
  budget: RetryBudget,
  call: { readonly repeatable: boolean; readonly effectful: boolean },
  send: (signal: AbortSignal) => Promise<AttemptVerdict<T>>,
): Promise<BackendResult<T>> {
  const failures: AttemptFailure[] = [];
  for (let retry = 0; ; retry += 1) {
    const verdict = await attemptWithin(budget, send);
    if (verdict.kind === 'final') return finalResult(verdict.result, failures, call.effectful);
    const { failure } = verdict;
    failures.push(failure);
    const mayRetry = failure.reach === 'none' || call.repeatable;
    if (!mayRetry || retry + 1 >= policy.attempts || budget.signal.aborted) break;
    const delay = retryDelayMs(policy, retry, failure.retryAfterMs, budget.deadline, Date.now());
    if (delay === null || !(await waitForRetry(delay, budget.signal))) break;
  }
  return exhaustedResult(failures, call.effectful);
}

/**
 * The result once no further attempt will be made. If any attempt may have been applied and the request
 * has effects, the answer is `unknown` — even when a later attempt failed to connect — never `unavailable`.
 */
function exhaustedResult(failures: readonly AttemptFailure[], effectful: boolean): BackendResult<never> {
  // Each attempt's cause: a timeout then a refused connect is not the same story as three refusals.
  const reason =
    failures.length === 1
      ? `${failures[0]!.reason} (1 attempt)`
      : `${failures.length} attempts: ${failures.map((f, i) => `${i + 1}. ${f.reason}`).join('; ')}`;
  if (effectful && failures.some((f) => f.reach === 'maybe')) return { kind: 'unknown', reason };
  return { kind: 'unavailable', reason };
}

/**
 * The call's result from a final answer. An unmapped status proves nothing about an earlier attempt that
 * may have been applied, so after one it is `unknown`; a mapped refusal is the service's word for the key.
 */
function finalResult<T>(
  result: BackendResult<T>,
  failures: readonly AttemptFailure[],
  effectful: boolean,
): BackendResult<T> {
  if (result.kind !== 'unexpected_status' || !effectful || !failures.some((f) => f.reach === 'maybe')) {
    return result;
  }
  return {
    kind: 'unknown',
    reason: `the service answered ${result.status} after an attempt that may have been applied`,
  };
}
