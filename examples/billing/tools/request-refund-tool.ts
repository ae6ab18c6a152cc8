import { backendOutcome, defineTool, type HttpBackend, idempotencyKeySchema, outcome } from 'toolgate';
import { z } from 'zod';
import { billingErrors } from './billing-errors.ts';
import { amountCentsSchema, invoiceIdSchema, reasonSchema } from './billing-inputs.ts';
import { reconcileKeyedWrite } from './billing-reconcile.ts';
import { refundRejection } from './billing-rejections.ts';
import { onBehalfOf, refundRequestResponse } from './billing-wire.ts';

const refundRequestResult = z.strictObject({
  refund_request_id: z
    .string()
    .describe('The request the finance team will decide; quote it to the customer.'),
  invoice_id: z.string().describe('The invoice the refund was requested on.'),
  amount_cents: z.number().int().describe('The amount requested, in cents.'),
  status: z.literal('pending').describe('Always pending here: finance decides later.'),
});

const NEVER_APPLIED = 'The billing service confirmed this refund request was never filed; nothing changed.';

/** billing_request_refund: asks the finance team to refund part of a paid invoice; they decide later. */
export function requestRefundTool(backend: HttpBackend) {
  return defineTool({
    name: 'billing_request_refund',
    title: 'Request a refund on a paid invoice',
    description:
      "Files a refund request for part of one of the customer's paid invoices. The finance team decides " +
      'later, so success is submitted with a refund_request_id, never completed: tell the customer the refund ' +
      'was requested, not that it was paid, and check the decision later with billing_get_invoice ' +
      '(refund_requests). Do not use it for open invoices: credit them with billing_issue_credit_note (INVOICE_NOT_PAID); ' +
      'more than the refundable amount is refused (REFUND_EXCEEDS_PAID). On outcome_unknown, poll ' +
      'operations_get or retry with the same idempotency_key; never file it again with a new key.',
    kind: 'request',
    mutation: 'create',
    externalSystems: ['billing'],
    version: '1.1.1',
    input: z.strictObject({
      invoice_id: invoiceIdSchema,
      amount_cents: amountCentsSchema,
      reason: reasonSchema,
      idempotency_key: idempotencyKeySchema,
    }),
    output: refundRequestResult,
    errors: [
      billingErrors.INVOICE_NOT_FOUND,
      billingErrors.INVOICE_NOT_PAID,
      billingErrors.REFUND_EXCEEDS_PAID,
      billingErrors.BILLING_REQUEST_NOT_APPLIED,
    ],
    scopes: ['billing:refund'],
    timeoutMs: 10_000,
    examples: [
      {
        title: 'Request a 25.00 refund on a paid invoice',
        input: {
          invoice_id: 'inv_acme_0003',
          amount_cents: 2_500,
          reason: 'Duplicate charge on the card',
          idempotency_key: 'refund-0c5d2e9a7b31f468',
        },
      },
    ],
    async handler(input, ctx) {
      if (!ctx.operation) throw new Error('billing_request_refund runs only under a reserved operation');
      const result = await backend.call(ctx, {
        method: 'POST',
        path: '/invoices/{invoice_id}/refund-requests',
        params: { invoice_id: input.invoice_id },
        query: onBehalfOf(ctx.principal),
        body: { amount_cents: input.amount_cents, reason: input.reason },
        response: refundRequestResponse,
        rejections: refundRejection,
      });
      return backendOutcome(result, (request) => outcome.submitted(request), {
        system: 'the billing service',
        correlationId: ctx.correlationId,
      });
    },
    // Reconciliation settles whether the request was filed (submitted), not finance's later decision.
    reconcile: reconcileKeyedWrite(
      backend,
      'refund_request',
      refundRequestResponse,
      (applied) => outcome.submitted(applied),
      NEVER_APPLIED,
    ),
  });
}
