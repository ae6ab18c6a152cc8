import { textSchema } from 'toolgate';
import { z } from 'zod';

// Input fields shared by the billing tools: every string and number bounded, every format explicit,
// so a malformed or invented value is refused by the gateway before the service is asked.

export const invoiceIdSchema = z
  .string()
  .regex(/^inv_[a-z0-9_]{4,40}$/)
  .describe('The invoice id as printed on the invoice: inv_ and 4-40 lowercase letters, digits or _.');

export const amountCentsSchema = z
  .number()
  .int()
  .min(1)
  .max(10_000_000)
  .describe('Amount in cents of the invoice currency, 1-10000000 (e.g. 2500 for 25.00).');

export const reasonSchema = textSchema({ min: 3, max: 300 }).describe(
  'Why, in the words the customer will read on the document (3-300 characters).',
);
