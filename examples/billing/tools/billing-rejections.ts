import type { RejectionMapping } from 'toolgate';
import { billingErrors } from './billing-errors.ts';
import { serviceError } from './billing-wire.ts';

// The service's refusals, translated into this gateway's codes. A refusal is the service's word that
// nothing was applied, so each becomes `rejected`; a status/error pair not listed here is not a
// refusal we understand and the kit reports it as unexpected (failed / INTERNAL_ERROR).

const notFound: RejectionMapping = {
  code: billingErrors.INVOICE_NOT_FOUND.code,
  message: 'No such invoice belongs to this customer.',
  resolution: 'Ask the customer for the invoice number; do not guess ids.',
};

// The service fenced the key: a status lookup declared it never applied, so this late delivery is refused.
const fenced: RejectionMapping = {
  code: billingErrors.BILLING_REQUEST_NOT_APPLIED.code,
  message: 'The billing service refused this request because it had already been declared not applied.',
  resolution: 'Read the invoice again and, if still wanted, call again with a new idempotency_key.',
};

/** Only numbers from the (untrusted) body reach a message; anything else is left out. */
const cents = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);

/** Refusals of POST /invoices/:id/credit-notes. */
export function creditNoteRejection(status: number, body: unknown): RejectionMapping | null {
  const refusal = serviceError(body);
  switch (`${status} ${refusal.error}`) {
    case '404 invoice_not_found':
      return notFound;
    case '409 version_mismatch': {
      const current = cents(refusal.current_version);
      return {
        code: billingErrors.INVOICE_VERSION_CHANGED.code,
        message: `The invoice changed since it was read${current === null ? '' : ` (it is now at version ${current})`}; no credit note was issued.`,
        resolution:
          'Read the invoice with billing_get_invoice, check the credit still makes sense, and call again with its version and a new idempotency_key.',
      };
    }
    case '409 invoice_not_open':
      return {
        code: billingErrors.INVOICE_NOT_OPEN.code,
        message: 'The invoice is no longer open, so it cannot be credited; nothing was issued.',
        resolution: 'For a paid invoice, use billing_request_refund instead.',
      };
    case '422 exceeds_balance': {
      const remaining = cents(refusal.remaining_cents);
      return {
        code: billingErrors.CREDIT_EXCEEDS_BALANCE.code,
        message: `The credit is larger than what is left on the invoice${remaining === null ? '' : ` (${remaining} cents)`}; nothing was issued.`,
        resolution: 'Offer the customer at most the remaining amount, with a new idempotency_key.',
      };
    }
    case '409 key_fenced':
      return fenced;
    default:
      return null;
  }
}

/** Refusals of POST /invoices/:id/refund-requests. */
export function refundRejection(status: number, body: unknown): RejectionMapping | null {
  const refusal = serviceError(body);
  switch (`${status} ${refusal.error}`) {
    case '404 invoice_not_found':
      return notFound;
    case '409 invoice_not_paid':
      return {
        code: billingErrors.INVOICE_NOT_PAID.code,
        message: 'The invoice is not paid, so there is nothing to refund; nothing was requested.',
        resolution: 'For an open invoice, use billing_issue_credit_note instead.',
      };
    case '422 exceeds_balance': {
      const remaining = cents(refusal.remaining_cents);
      return {
        code: billingErrors.REFUND_EXCEEDS_PAID.code,
        message: `The refund is larger than what can still be refunded${remaining === null ? '' : ` (${remaining} cents)`}; nothing was requested.`,
        resolution: 'Ask for at most the refundable amount, with a new idempotency_key.',
      };
    }
    case '409 key_fenced':
      return fenced;
    default:
      return null;
  }
}
