import { defineErrorCodes, defineTool, idempotencyKeySchema, outcome, type SqlDatabase } from 'toolgate';
import { z } from 'zod';
import { customerIdSchema, REFUND_LIMIT_CENTS, refundOverLimit } from './refund-over-limit.ts';

const refundErrors = defineErrorCodes({
  REFUND_OVER_LIMIT: {
    category: 'policy',
    retryable: false,
    description: `The refund is above the ${REFUND_LIMIT_CENTS / 100}.00 limit and no finance approver lifted it for this customer.`,
  },
  REFUND_EXCEPTION_WITHDRAWN: {
    category: 'policy',
    retryable: false,
    description:
      'The exception that allowed the refund was revoked before the refund was made; nothing was refunded.',
  },
});

const refundResult = z.strictObject({
  refund_id: z.string().describe('The refund, to quote to the customer.'),
  customer_id: z.string(),
  amount_cents: z.number().int(),
  exception_id: z
    .string()
    .nullable()
    .describe('The exception a refund above the limit went ahead under; null otherwise.'),
});

/** refunds_issue: refunds a customer, up to the limit, or above it under a finance approver's exception. */
export function refundsIssueTool(db: SqlDatabase) {
  return defineTool({
    name: 'refunds_issue',
    title: 'Refund a customer',
    description: `Refunds an amount to one customer. Up to ${REFUND_LIMIT_CENTS / 100}.00 per refund; above it only when a finance approver granted a refund_over_limit exception for this customer (REFUND_OVER_LIMIT otherwise: tell the user a finance approver must lift the limit; no field of this tool does). Completed means the refund was made. On outcome_unknown, poll operations_get; retry only with the same idempotency_key.`,
    kind: 'write',
    mutation: 'create',
    version: '1.0.0',
    input: z.strictObject({
      customer_id: customerIdSchema,
      amount_cents: z.number().int().min(1).max(10_000_000).describe('The amount to refund, in cents.'),
      reason: z.string().min(5).max(200).describe('Why the customer is refunded, for the statement.'),
      idempotency_key: idempotencyKeySchema,
    }),
    output: refundResult,
    errors: [refundErrors.REFUND_OVER_LIMIT, refundErrors.REFUND_EXCEPTION_WITHDRAWN],
    scopes: ['refunds:write'],
    timeoutMs: 5_000,
    examples: [
      {
        title: 'Refund 25.00 for a duplicate charge',
        input: {
          customer_id: 'cus_acme_alice',
          amount_cents: 2_500,
          reason: 'Duplicate charge on the card',
          idempotency_key: 'refund-2f9c51a07be34d18',
        },
      },
    ],
    exceptions: [{ exception: refundOverLimit, target: (input) => ({ customer_id: input.customer_id }) }],
    async handler(input, ctx) {
      if (!ctx.operation) throw new Error('refunds_issue runs only under a reserved operation');
      const over = input.amount_cents > REFUND_LIMIT_CENTS;
      const [granted] = over
        ? await ctx.exceptions.active(refundOverLimit, { customer_id: input.customer_id })
        : [];
      if (over && !granted) {
        return outcome.rejected(
          'REFUND_OVER_LIMIT',
          `A refund above ${REFUND_LIMIT_CENTS / 100}.00 needs a finance approver's exception for ${input.customer_id}; nothing was refunded.`,
          {
            resolution:
              'Ask a finance approver (scope refunds:approve) to grant a refund_over_limit exception for this customer, or refund at most the limit.',
          },
        );
      }
      const refundId = `rfd_${ctx.operation.id.slice('op_'.length).toLowerCase()}`;
      return ctx.operation.commit(async (tx) => {
        // Checked again in the refund's own transaction: a revoke that committed first refuses it.
        const used = granted ? await ctx.exceptions.use(granted, { within: tx }) : null;
        if (granted && !used) {
          return outcome.rejected(
            'REFUND_EXCEPTION_WITHDRAWN',
            `Exception ${granted.exception_id} was revoked; nothing was refunded.`,
          );
        }
        await tx.execute(
          'INSERT INTO refunds_issued (refund_id, operation_id, tenant, customer_id, amount_cents, exception_id) VALUES (?, ?, ?, ?, ?, ?)',
          [
            refundId,
            ctx.operation!.id,
            ctx.principal.tenant,
            input.customer_id,
            input.amount_cents,
            used?.exception_id ?? null,
          ],
        );
        return outcome.completed({
          refund_id: refundId,
          customer_id: input.customer_id,
          amount_cents: input.amount_cents,
          exception_id: used?.exception_id ?? null,
        });
      });
    },
    // The refund and the operation commit together: a refund row exists exactly when the operation settled.
    async reconcile(operation) {
      const [row] = await db.query<{
        refund_id: string;
        customer_id: string;
        amount_cents: number;
        exception_id: string | null;
      }>(
        'SELECT refund_id, customer_id, amount_cents, exception_id FROM refunds_issued WHERE operation_id = ?',
        [operation.id],
      );
      if (row)
        return {
          settled: true,
          outcome: outcome.completed({ ...row, amount_cents: Number(row.amount_cents) }),
        };
      return {
        settled: true,
        outcome: outcome.rejected('REFUND_EXCEPTION_WITHDRAWN', 'No refund was made for this operation.'),
      };
    },
  });
}
