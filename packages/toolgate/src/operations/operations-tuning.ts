/**
 * Timings of the durable-operations machinery. Defaults suit a production gateway; tests shorten
 * them so that leases expire and reconciliation runs within a test's time.
 */
export interface OperationsTuning {
  /** How long a concurrent duplicate delivery waits for the first one before answering in_progress. */
  readonly joinWaitMs: number;
  /** Added to the tool's timeout: a record still in progress after both is taken as abandoned. */
  readonly leaseGraceMs: number;
  /** How often the reconciler looks for due work when nothing wakes it sooner. */
  readonly reconcileIntervalMs: number;
  /** Records one reconciler pass claims at most. */
  readonly reconcileBatch: number;
  /** First delay before asking again; doubles per attempt up to reconcileBackoffMaxMs. */
  readonly reconcileBackoffMs: number;
  readonly reconcileBackoffMaxMs: number;
  /** Unsettled attempts after which a record goes to human review. */
  readonly reconcileMaxAttempts: number;
  /** Time one reconcile hook may take. */
  readonly reconcileTimeoutMs: number;
  /** How long a claim keeps other processes off a record; a claimer that dies releases it then. */
  readonly claimMs: number;
  /** How often expired terminal records are purged. */
  readonly purgeIntervalMs: number;
}

export const DEFAULT_OPERATIONS_TUNING: OperationsTuning = Object.freeze({
  joinWaitMs: 500,
  leaseGraceMs: 10_000,
  reconcileIntervalMs: 1_000,
  reconcileBatch: 20,
  reconcileBackoffMs: 2_000,
  reconcileBackoffMaxMs: 5 * 60_000,
  reconcileMaxAttempts: 5,
  reconcileTimeoutMs: 10_000,
  claimMs: 60_000,
  purgeIntervalMs: 60_000,
});

/** Delay before reconcile attempt `attempt + 1`, after `attempt` unsettled attempts. */
export function reconcileBackoff(tuning: OperationsTuning, attempt: number): number {
  return Math.min(tuning.reconcileBackoffMaxMs, tuning.reconcileBackoffMs * 2 ** Math.max(0, attempt - 1));
}
