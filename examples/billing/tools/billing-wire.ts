import { z } from 'zod';

// The billing service's wire format, as this gateway expects it. The backend kit checks every 2xx body
// against these, so a service that changes shape is a visible contract violation, never a silent success.
// Plain (non-strict) objects: fields the service adds later are ignored, not a failure.

export const invoiceStatusSchema = z.enum(['open', 'paid', 'void']);
export const refundStatusSchema = z.enum(['pending', 'approved', 'declined']);

/** GET /invoices/:id */
export const invoiceResponse = z.object({
  invoice_id: z.string(),
  customer_id: z.string(),
  status: invoiceStatusSchema,
  amount_cents: z.number().int(),
  credited_cents: z.number().int(),
  version: z.number().int(),
  refund_requests: z.array(
    z.object({ refund_request_id: z.string(), amount_cents: z.number().int(), status: refundStatusSchema }),
  ),
});

/** 201 from POST /invoices/:id/credit-notes */
export const creditNoteResponse = z.object({
  credit_note_id: z.string(),
  invoice_id: z.string(),
  amount_cents: z.number().int(),
  invoice_version: z.number().int(),
});

/** 202 from POST /invoices/:id/refund-requests */
export const refundRequestResponse = z.object({
  refund_request_id: z.string(),
  invoice_id: z.string(),
  amount_cents: z.number().int(),
  status: z.literal('pending'),
});

/** 200 from GET /operations/:key for a key whose write was applied: the answer the first request got. */
export function appliedOperationResponse<S extends z.ZodType>(
  kind: 'credit_note' | 'refund_request',
  response: S,
) {
  return z.object({ status: z.literal('applied'), kind: z.literal(kind), response });
}

/** A service error body: `{ error, ...details }`; anything else reads as an unknown error. */
export function serviceError(body: unknown): { error: string; [detail: string]: unknown } {
  const parsed = z.looseObject({ error: z.string() }).safeParse(body);
  return parsed.success ? parsed.data : { error: 'unknown' };
}

/**
 * The identity the service scopes every request by, from the verified principal only (never from tool
 * input). It travels as query parameters because the kit's `headers` are per backend, not per call; a
 * real deployment authenticates the gateway with service credentials (the kit's `headers`) and lets
 * the service trust these values only from that caller.
 */
export function onBehalfOf(principal: { tenant: string; subject: string }) {
  return { tenant: principal.tenant, customer: principal.subject };
}

/** The status resource of a keyed write, scoped to the operation's tenant. */
export function operationStatusPath(tenant: string): (operationId: string) => string {
  return (operationId) =>
    `/operations/${encodeURIComponent(operationId)}?tenant=${encodeURIComponent(tenant)}`;
}
