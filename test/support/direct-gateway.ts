import type { IdempotencyLayer } from '../../packages/toolgate/src/operations/keyed-store.ts';
import type { AuditEntry, AuditSink } from '../../packages/toolgate/src/telemetry/audit.ts';

/**
 * The idempotency layer of a gateway built in a test for read tools only: a write or request would
 * need a durable reservation, so admitting one fails as the layer's own failure would.
 */
export const readOnlyIdempotency: IdempotencyLayer = failingIdempotency(
  () => new Error('this gateway has no operation store: it serves read tools only'),
);

/** An idempotency layer whose every admission fails with the error given (a store that broke). */
export function failingIdempotency(error: () => unknown): IdempotencyLayer {
  return {
    async admit() {
      throw error();
    },
  };
}

/** An audit sink that keeps its entries, for a test to read what the gateway audited. */
export function recordingAuditSink(): AuditSink & { readonly entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return { entries, record: (entry) => void entries.push(entry) };
}
