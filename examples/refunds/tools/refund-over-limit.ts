import { defineException } from 'toolgate';
import { z } from 'zod';

/** The most one refund may return without an exception: 500.00 in cents. */
export const REFUND_LIMIT_CENTS = 50_000;

export const customerIdSchema = z
  .string()
  .regex(/^cus_[a-z0-9_]{3,40}$/, 'a customer id as the support tools show it (cus_...)')
  .describe('The customer to refund, as the support tools show it (cus_...).');

/**
 * The refunds team's own exception: a finance approver (scope `refunds:approve`) lifts the per-refund
 * limit for one customer, for at most a day. Never for a refund the approver asks for themselves.
 */
export const refundOverLimit = defineException({
  kind: 'refund_over_limit',
  title: 'Refund above the limit',
  description: `Lets refunds of one customer exceed the ${REFUND_LIMIT_CENTS / 100}.00 limit per refund, for at most a day. Granted by a finance approver; never applies to a refund its grantor asks for.`,
  target: z.strictObject({ customer_id: customerIdSchema }),
  grantScope: 'refunds:approve',
  maxDurationSeconds: 86_400,
});
