import type { IdempotencyLayer } from '../../packages/toolgate/src/operations/keyed-store.ts';
import type { AuditEntry, AuditSink } from '../../packages/toolgate/src/telemetry/audit.ts';

/**
 * The idempotency layer of a gateway built in a test for read tools only: a write or request would
 * need a durable reservation, so looking up its key fails as the store's own failure would.
 */
export const readOnlyIdempotency: IdempotencyLayer = failingIdempotency(
  () => new Error('this gateway has no operation store: it serves read tools only'),
);

/** An idempotency store whose every primitive fails with the error given (a store that broke). */
export function failingIdempotency(error: () => unknown): IdempotencyLayer {
  const fail = async (): Promise<never> => {
    throw error();
  };
  return {
    now: () => Date.now(),
    find: fail,
    join: fail,
    suspect: fail,
    reserve: fail,
    takeOver: fail,
  };
}

/** An audit sink that keeps its entries, for a test to read what the gateway audited. */
export function recordingAuditSink(): AuditSink & { readonly entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return { entries, record: (entry) => void entries.push(entry) };
}
