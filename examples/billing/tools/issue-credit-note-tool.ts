import { backendOutcome, defineTool, type HttpBackend, idempotencyKeySchema, outcome } from 'toolgate';
import { z } from 'zod';
import { billingErrors } from './billing-errors.ts';
import { amountCentsSchema, invoiceIdSchema, reasonSchema } from './billing-inputs.ts';
import { reconcileKeyedWrite } from './billing-reconcile.ts';
import { creditNoteRejection } from './billing-rejections.ts';
import { creditNoteResponse, onBehalfOf } from './billing-wire.ts';

const creditNoteResult = z.strictObject({
  credit_note_id: z.string().describe('The credit note the billing service issued.'),
  invoice_id: z.string().describe('The invoice the credit note was issued on.'),
  amount_cents: z.number().int().describe('The amount credited, in cents.'),
  invoice_version: z.number().int().describe('The invoice version after this credit.'),
});

const NEVER_APPLIED = 'The billing service confirmed this credit note was never issued; nothing changed.';

/** billing_issue_credit_note: credits part of an open invoice, once per idempotency key. */
export function issueCreditNoteTool(backend: HttpBackend) {
  return defineTool({
    name: 'billing_issue_credit_note',
    title: 'Issue a credit note on an invoice',
    description:
      "Credits part of one of the customer's open invoices (a goodwill credit, a price correction). Read the " +
      'invoice first with billing_get_invoice and pass its version as expected_invoice_version: if the invoice ' +
      'changed meanwhile the answer is INVOICE_VERSION_CHANGED and nothing is issued. The billing service ' +
      'refuses credits larger than what remains (CREDIT_EXCEEDS_BALANCE) and credits on paid or void ' +
      'invoices (INVOICE_NOT_OPEN): do not use it for paid invoices; use billing_request_refund. On outcome_unknown, poll ' +
      'operations_get or retry with the same idempotency_key; never send it again with a new key.',
    kind: 'write',
    mutation: 'create',
    externalSystems: ['billing'],
    version: '1.1.1',
    input: z.strictObject({
      invoice_id: invoiceIdSchema,
      amount_cents: amountCentsSchema,
      reason: reasonSchema,
      expected_invoice_version: z
        .number()
        .int()
        .min(1)
        .max(1_000_000)
        .describe(
          'The version billing_get_invoice returned; the credit is refused if the invoice changed since.',
        ),
      idempotency_key: idempotencyKeySchema,
    }),
    output: creditNoteResult,
    errors: [
      billingErrors.INVOICE_NOT_FOUND,
      billingErrors.INVOICE_VERSION_CHANGED,
      billingErrors.CREDIT_EXCEEDS_BALANCE,
      billingErrors.INVOICE_NOT_OPEN,
      billingErrors.BILLING_REQUEST_NOT_APPLIED,
    ],
    scopes: ['billing:write'],
    timeoutMs: 10_000,
    examples: [
      {
        title: 'Credit 25.00 on an open invoice',
        input: {
          invoice_id: 'inv_acme_0001',
          amount_cents: 2_500,
          reason: 'Late delivery goodwill credit',
          expected_invoice_version: 1,
          idempotency_key: 'credit-7f3a9c2e41d8b6a0',
        },
      },
    ],
    async handler(input, ctx) {
      // The kit sends ctx.operation.id as the Idempotency-Key; without it the service could not deduplicate.
      if (!ctx.operation) throw new Error('billing_issue_credit_note runs only under a reserved operation');
      const result = await backend.call(ctx, {
        method: 'POST',
        path: '/invoices/{invoice_id}/credit-notes',
        params: { invoice_id: input.invoice_id },
        query: onBehalfOf(ctx.principal),
        body: {
          amount_cents: input.amount_cents,
          reason: input.reason,
          expected_version: input.expected_invoice_version,
        },
        response: creditNoteResponse,
        rejections: creditNoteRejection,
      });
      return backendOutcome(result, (note) => outcome.completed(note), {
        system: 'the billing service',
        correlationId: ctx.correlationId,
      });
    },
    // The service keeps every applied key and fences the ones it is asked about, so its 404 is final.
    reconcile: reconcileKeyedWrite(
      backend,
      'credit_note',
      creditNoteResponse,
      (applied) => outcome.completed(applied),
      NEVER_APPLIED,
    ),
  });
}
