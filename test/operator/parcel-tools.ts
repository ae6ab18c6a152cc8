import type { ReviewDecisionView } from 'toolgate';
import { defineTool, idempotencyKeySchema, outcome } from 'toolgate';
import type { TokenSubject } from 'toolgate/testing';
import { z } from 'zod';

/** What the parcel tools' hooks saw, so tests can assert the review hook ran (and ran once). */
export interface ParcelLedger {
  readonly reviews: { operationId: string; decision: ReviewDecisionView }[];
  /** The traceparent each handler was given for its backend calls (undefined when tracing is off). */
  readonly traceparents?: (string | undefined)[];
}

export const SECRET_STREET = '7 Secret Lane';
/** A reference parcels_ship refuses to resolve with: the carrier knows no such parcel. */
export const UNKNOWN_PARCEL = 'TRK-NONE';

const shipInput = z.strictObject({
  order_id: z.string().min(1).max(40).describe('Order to ship.'),
  title: z.string().min(1).max(200).describe('Label title.'),
  address: z
    .strictObject({ line1: z.string().max(100), city: z.string().max(60) })
    .describe('Where the parcel goes.'),
  idempotency_key: idempotencyKeySchema,
});
const shipOutput = z.strictObject({ parcel_id: z.string() });

/**
 * `parcels_ship` never learns whether the carrier took the parcel (outcome unknown) and the carrier
 * has no status query, so the reconciler escalates every operation to review at once: a parked
 * operation in two calls. `parcels_peek` is a plain read.
 */
export function parcelTools(ledger: ParcelLedger) {
  return [
    defineTool({
      name: 'parcels_ship',
      title: 'Ship a parcel',
      description: 'Hands a parcel to the carrier for shipping. Test-only tool: the carrier never confirms.',
      kind: 'write',
      mutation: 'create',
      externalSystems: ['carrier'],
      version: '1.2.0',
      input: shipInput,
      output: shipOutput,
      errors: [],
      scopes: ['parcels:write'],
      timeoutMs: 2_000,
      sensitiveFields: ['address'],
      examples: [],
      handler: async (_input, ctx) => {
        ledger.traceparents?.push(ctx.traceparent);
        return outcome.unknown<{ parcel_id: string }>('OUTCOME_UNKNOWN', 'The carrier did not answer.');
      },
      reconcile: async () => ({ settled: false, note: 'carrier has no status query', escalate: true }),
      checkReviewDecision: async (_operation, decision) =>
        decision.reference === UNKNOWN_PARCEL
          ? { refuse: `The carrier knows no parcel ${UNKNOWN_PARCEL}.` }
          : null,
      onReviewResolved: async (operation, decision) => {
        ledger.reviews.push({ operationId: operation.id, decision });
      },
    }),
    defineTool({
      name: 'parcels_peek',
      title: 'Peek at a parcel',
      description: 'Reads one parcel by its id and answers what the carrier knows. Test-only tool.',
      kind: 'read',
      version: '1.0.0',
      input: z.strictObject({ parcel_id: z.string().min(1).max(40).describe('Parcel id.') }),
      output: shipOutput,
      errors: [],
      scopes: ['parcels:read'],
      timeoutMs: 2_000,
      examples: [],
      handler: async (input, ctx) => {
        ledger.traceparents?.push(ctx.traceparent);
        return outcome.completed({ parcel_id: input.parcel_id });
      },
    }),
  ];
}

export const shipper = (tenant = 'acme'): TokenSubject => ({
  sub: `shipper-${tenant}`,
  tenant,
  actor: 'support_agent',
  scopes: ['parcels:write', 'parcels:read', 'operations:read'],
});
export const reviewer = (tenant = 'acme'): TokenSubject => ({
  sub: `reviewer-${tenant}`,
  tenant,
  actor: 'operator',
  scopes: ['operations:read', 'operations:review'],
});
export const watcher: TokenSubject = {
  sub: 'watcher-acme',
  tenant: 'acme',
  actor: 'operator',
  scopes: ['operations:read'],
};
export const customerReader: TokenSubject = {
  sub: 'customer-acme',
  tenant: 'acme',
  actor: 'customer',
  scopes: ['operations:read'],
};

export function shipArgs(key: string) {
  return {
    order_id: 'ord_4711',
    title: 'Birthday present',
    address: { line1: SECRET_STREET, city: 'Hiddenville' },
    idempotency_key: key,
  };
}
