/** An invoice row as the rules see it. */
export interface Invoice {
  readonly tenant: string;
  readonly invoice_id: string;
  readonly customer_id: string;
  readonly status: 'open' | 'paid' | 'void';
  readonly amount_cents: number;
  readonly credited_cents: number;
  readonly version: number;
}

/** A refusal the service answers with: an HTTP status and a body naming the rule. */
export interface Refusal {
  readonly status: 400 | 404 | 409 | 422;
  readonly body: { readonly error: string; readonly [detail: string]: unknown };
}

export interface CreditNoteRequest {
  readonly amount_cents: number;
  readonly reason: string;
  readonly expected_version: number;
}

export interface RefundRequest {
  readonly amount_cents: number;
  readonly reason: string;
}

/** What is left to credit or refund on an invoice. */
export function remainingCents(invoice: Invoice, committedRefundCents = 0): number {
  return invoice.amount_cents - invoice.credited_cents - committedRefundCents;
}

/**
 * Why a credit note may not be applied to this invoice now, or null when it may. The caller runs it
 * inside the transaction that writes the note, so the version it compares is the one it commits over.
 */
export function creditNoteRefusal(invoice: Invoice, request: CreditNoteRequest): Refusal | null {
  // The version check comes first: a caller working from a stale read must re-read before anything else.
  if (invoice.version !== request.expected_version) {
    return { status: 409, body: { error: 'version_mismatch', current_version: invoice.version } };
  }
  if (invoice.status !== 'open') {
    return { status: 409, body: { error: 'invoice_not_open', invoice_status: invoice.status } };
  }
  const remaining = remainingCents(invoice);
  if (request.amount_cents > remaining) {
    return { status: 422, body: { error: 'exceeds_balance', remaining_cents: remaining } };
  }
  return null;
}

/**
 * Why a refund may not be requested, or null. Only paid invoices are refunded, and pending or
 * approved refunds already claim their part of the paid amount.
 */
export function refundRefusal(
  invoice: Invoice,
  request: RefundRequest,
  committedRefundCents: number,
): Refusal | null {
  if (invoice.status !== 'paid') {
    return { status: 409, body: { error: 'invoice_not_paid', invoice_status: invoice.status } };
  }
  const remaining = remainingCents(invoice, committedRefundCents);
  if (request.amount_cents > remaining) {
    return { status: 422, body: { error: 'exceeds_balance', remaining_cents: remaining } };
  }
  return null;
}

/** Request bodies are checked here rather than trusted: the service owns its own input rules. */
export function creditNoteRequestOf(body: unknown): CreditNoteRequest | null {
  if (typeof body !== 'object' || body === null) return null;
  const { amount_cents, reason, expected_version } = body as Record<string, unknown>;
  if (!isPositiveInt(amount_cents) || !isPositiveInt(expected_version) || !isReason(reason)) return null;
  return { amount_cents, reason, expected_version };
}

/** The same check for refund request bodies. */
export function refundRequestOf(body: unknown): RefundRequest | null {
  if (typeof body !== 'object' || body === null) return null;
  const { amount_cents, reason } = body as Record<string, unknown>;
  if (!isPositiveInt(amount_cents) || !isReason(reason)) return null;
  return { amount_cents, reason };
}

function isPositiveInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isReason(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0 && value.length <= 500;
}
