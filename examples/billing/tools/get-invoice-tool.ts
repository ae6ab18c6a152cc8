import { backendOutcome, defineTool, type HttpBackend, outcome } from 'toolgate';
import { z } from 'zod';
import { billingErrors } from './billing-errors.ts';
import { invoiceIdSchema } from './billing-inputs.ts';
import { invoiceResponse, invoiceStatusSchema, onBehalfOf, refundStatusSchema } from './billing-wire.ts';

const invoiceView = z.strictObject({
  invoice_id: z.string().describe('The invoice id.'),
  status: invoiceStatusSchema.describe('open (can be credited), paid (can be refunded) or void.'),
  amount_cents: z.number().int().describe('Invoiced amount in cents.'),
  credited_cents: z.number().int().describe('Sum of the credit notes applied so far, in cents.'),
  remaining_cents: z.number().int().describe('What is left to credit: amount_cents - credited_cents.'),
  version: z
    .number()
    .int()
    .describe('Changes with every credit note; pass it as expected_invoice_version when crediting.'),
  refund_requests: z
    .array(
      z.strictObject({
        refund_request_id: z.string().describe('The id billing_request_refund answered for this request.'),
        amount_cents: z.number().int().describe('The amount requested, in cents.'),
        status: refundStatusSchema.describe('pending until the finance team decides.'),
      }),
    )
    .describe('Refund requests against this invoice, oldest first, with their current decision.'),
});

/** billing_get_invoice: one invoice of the calling customer, read from the billing service. */
export function getInvoiceTool(backend: HttpBackend) {
  return defineTool({
    name: 'billing_get_invoice',
    title: 'Read an invoice',
    description:
      "Returns one of the customer's invoices from the billing service: its status, amount, what was " +
      'credited, what remains, its version and the refund requests made against it with their decision. ' +
      'Read it before billing_issue_credit_note (which needs the version) and to check whether finance ' +
      'decided a refund requested with billing_request_refund. Do not use it to change an invoice (use ' +
      'billing_issue_credit_note or billing_request_refund). Unknown ids answer INVOICE_NOT_FOUND.',
    kind: 'read',
    externalSystems: ['billing'],
    version: '1.1.1',
    input: z.strictObject({ invoice_id: invoiceIdSchema }),
    output: invoiceView,
    errors: [billingErrors.INVOICE_NOT_FOUND],
    scopes: ['billing:read'],
    timeoutMs: 5_000,
    examples: [{ title: 'Read an open invoice', input: { invoice_id: 'inv_acme_0001' } }],
    async handler(input, ctx) {
      const result = await backend.call(ctx, {
        method: 'GET',
        path: '/invoices/{invoice_id}',
        params: { invoice_id: input.invoice_id },
        query: onBehalfOf(ctx.principal),
        response: invoiceResponse,
        rejections: {
          404: {
            code: billingErrors.INVOICE_NOT_FOUND.code,
            message: `No invoice ${input.invoice_id} belongs to this customer.`,
            resolution: 'Ask the customer for the invoice number; do not guess ids.',
          },
        },
      });
      return backendOutcome(
        result,
        (invoice) =>
          outcome.completed({
            invoice_id: invoice.invoice_id,
            status: invoice.status,
            amount_cents: invoice.amount_cents,
            credited_cents: invoice.credited_cents,
            remaining_cents: invoice.amount_cents - invoice.credited_cents,
            version: invoice.version,
            refund_requests: invoice.refund_requests,
          }),
        { system: 'the billing service', correlationId: ctx.correlationId },
      );
    },
  });
}
