import { defineErrorCodes } from 'toolgate';

/**
 * The codes the billing tools answer with. They are this gateway's published contract, not the
 * service's wire format: the service says `version_mismatch`, the agent sees INVOICE_VERSION_CHANGED.
 */
export const billingErrors = defineErrorCodes({
  INVOICE_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description:
      'No invoice with this id belongs to the customer; ask the customer for the invoice number instead of guessing.',
  },
  INVOICE_VERSION_CHANGED: {
    category: 'conflict',
    retryable: false,
    description:
      'The invoice changed since it was read; nothing was applied. Read it again with billing_get_invoice, check the credit still makes sense, and call again with the new version and a new idempotency_key.',
  },
  CREDIT_EXCEEDS_BALANCE: {
    category: 'state',
    retryable: false,
    description:
      'The credit is larger than what is left to credit on the invoice; nothing was applied. Offer at most the remaining amount.',
  },
  INVOICE_NOT_OPEN: {
    category: 'state',
    retryable: false,
    description:
      'The invoice is paid or void, so it cannot be credited; nothing was applied. For a paid invoice, request a refund instead.',
  },
  INVOICE_NOT_PAID: {
    category: 'state',
    retryable: false,
    description:
      'Only paid invoices can be refunded; nothing was requested. For an open invoice, issue a credit note instead.',
  },
  REFUND_EXCEEDS_PAID: {
    category: 'state',
    retryable: false,
    description:
      'The refund is larger than the paid amount not already credited or claimed by other refund requests; nothing was requested.',
  },
  BILLING_REQUEST_NOT_APPLIED: {
    category: 'state',
    retryable: false,
    description:
      'The billing service confirmed it never applied this request and never will; nothing changed. Read the invoice again and, if still wanted, start over with a new idempotency_key.',
  },
});
