import { defineErrorCodes, defineTool, idempotencyKeySchema, outcome } from 'toolgate';
import { z } from 'zod';

/** One refund as the payment service records it. */
export interface Refund {
  readonly refund_id: string;
  readonly amount_cents: number;
  readonly to: 'card' | 'store_credit';
}

/** What the tool needs from your payment service (an HTTP client, an SDK, ...). */
export interface Payments {
  /** The order if the tenant owns it: what was paid and the card it was paid with. Reads only. */
  orderOf(tenant: string, orderId: string): Promise<{ paid_cents: number; card_last4: string } | null>;
  /** Refunds once per operation id: a repeat with the same id makes no second refund. */
  refund(operationId: string, orderId: string, amountCents: number, to: Refund['to']): Promise<Refund>;
  /** The refund an operation made, if it made one. */
  refundBy(operationId: string): Promise<Refund | null>;
}

const errors = defineErrorCodes({
  ORDER_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description: 'No order with this id is visible to the caller; look the order up instead of guessing.',
  },
  REFUND_NOT_MADE: {
    category: 'state',
    retryable: false,
    description: 'The payment service made no refund for this request; a new attempt needs a new key.',
  },
});

/** Refunds of this many cents or more need the user's own yes. */
export const CONFIRM_FROM_CENTS = 100_00;
const euros = (cents: number) => `EUR ${(cents / 100).toFixed(2)}`;

export function refundsIssue(payments: Payments) {
  return defineTool({
    name: 'refunds_issue',
    title: 'Refund an order',
    description:
      'Refunds part of one order of the caller, to the card it was paid with or as store credit. ' +
      'Refunds of EUR 100.00 or more are put to the user to confirm first. Do not use it to cancel an order.',
    kind: 'write',
    mutation: 'create',
    externalSystems: ['payments'],
    version: '1.0.0',
    input: z.strictObject({
      order_id: z
        .string()
        .regex(/^ord_[0-9a-z]{8}$/)
        .describe('Order id: ord_ and 8 characters.'),
      amount_cents: z.number().int().min(1).max(1_000_000).describe('How much to refund, in euro cents.'),
      idempotency_key: idempotencyKeySchema,
    }),
    output: z.strictObject({
      refund_id: z.string(),
      amount_cents: z.number().int(),
      to: z.enum(['card', 'store_credit']),
    }),
    errors: [errors.ORDER_NOT_FOUND, errors.REFUND_NOT_MADE],
    scopes: ['refunds:write'],
    timeoutMs: 5_000,
    examples: [
      {
        title: 'Refund EUR 25.00',
        input: { order_id: 'ord_0a1b2c3d', amount_cents: 2_500, idempotency_key: 'refund-ord0a1b-0001' },
      },
    ],
    confirm: {
      when: 'refunds of EUR 100.00 or more',
      fallback: 'refuse',
      async ask(input, ctx) {
        if (input.amount_cents < CONFIRM_FROM_CENTS) return null;
        const order = await payments.orderOf(ctx.principal.tenant, input.order_id);
        // Nothing is reserved yet: an unknown order is refused before anyone is asked.
        if (!order) {
          return { refuse: outcome.rejected('ORDER_NOT_FOUND', 'No such order is visible to you.') };
        }
        return {
          message: `Refund ${euros(input.amount_cents)} of order ${input.order_id}?`,
          details: {
            order: input.order_id,
            refund: euros(input.amount_cents),
            paid: euros(order.paid_cents),
          },
          choice: {
            title: 'Refund to',
            options: [
              { value: 'card', title: `The card ending ${order.card_last4}` },
              { value: 'store_credit', title: 'Store credit' },
            ],
          },
          // Bound into the confirmation: if the order's card changes before the answer, nothing runs.
          facts: { card_last4: order.card_last4 },
        };
      },
    },
    async handler(input, ctx) {
      const order = await payments.orderOf(ctx.principal.tenant, input.order_id);
      if (!order) return outcome.rejected('ORDER_NOT_FOUND', 'No such order is visible to you.');
      // What the user chose; a refund small enough to need no confirmation goes back to the card.
      const to = ctx.confirmation?.choice === 'store_credit' ? 'store_credit' : 'card';
      return outcome.completed(
        await payments.refund(ctx.operation!.id, input.order_id, input.amount_cents, to),
      );
    },
    async reconcile(operation) {
      const made = await payments.refundBy(operation.id);
      if (made) return { settled: true, outcome: outcome.completed(made) };
      return { settled: true, outcome: outcome.rejected('REFUND_NOT_MADE', 'No refund was made.') };
    },
  });
}
