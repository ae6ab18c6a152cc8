import { z } from 'zod';
import { fulfilmentStateSchema } from './fulfilment.ts';
import { postalAddressViewSchema } from './postal-address.ts';
import { REDIRECT_STATUSES } from './systems/carrier/carrier-records.ts';
import { ADDRESS_FIELDS } from './systems/postal-address.ts';

/** The agent-visible shapes the orders and shipments tools share. */
export const orderIdSchema = z
  .string()
  .length(36)
  .regex(/^ord_[0-9a-f]{32}$/)
  .describe(
    'Order id: "ord_" followed by 32 lowercase hexadecimal characters, exactly as orders_get shows it.',
  );

export const expectedOrderVersionSchema = z
  .number()
  .int()
  .min(1)
  .max(1_000_000)
  .describe(
    'The order version from your most recent orders_get. If the order changed since, nothing is changed and the answer is ORDER_STATE_CHANGED.',
  );

export const orderVersionSchema = z
  .number()
  .int()
  .min(1)
  .describe(
    'The order version after this call; pass it as expected_order_version to change the order again.',
  );

const suggestedAddressSchema = postalAddressViewSchema
  .nullable()
  .describe('requires_confirmation: the corrected address validation proposes; otherwise null.');

export const addressChangeResultSchema = z.strictObject({
  order_id: z.string().describe('The order id, as requested.'),
  order_version: orderVersionSchema,
  fulfilment_state: fulfilmentStateSchema,
  confirmed_address: postalAddressViewSchema
    .nullable()
    .describe('completed: the address now on the order, as the warehouse confirmed it; otherwise null.'),
  suggested_address: suggestedAddressSchema,
  corrected_fields: z
    .array(z.enum(ADDRESS_FIELDS))
    .max(ADDRESS_FIELDS.length)
    .describe('Fields the suggestion changes materially (street or postal code); empty otherwise.'),
});
export type AddressChangeResult = z.output<typeof addressChangeResultSchema>;

export const redirectStatusSchema = z
  .enum(REDIRECT_STATUSES)
  .describe(
    "The carrier's decision so far: submitted (received, not decided; tell the customer it was requested, not done), " +
      'accepted (it will redirect), declined (it refused; the parcel was not redirected), completed (delivered to the new address).',
  );

export const redirectRequestResultSchema = z.strictObject({
  order_id: z.string().describe('The order id, as requested.'),
  shipment_id: z
    .string()
    .nullable()
    .describe(
      "The retailer's id of the parcel to redirect; null when the request was refused before it was known.",
    ),
  tracking_id: z
    .string()
    .nullable()
    .describe("The carrier's tracking number of the parcel; null when the parcel is not known."),
  carrier: z
    .string()
    .nullable()
    .describe('The carrier asked to redirect the parcel; it, not the shop, decides. Null when not known.'),
  request_id: z
    .string()
    .nullable()
    .describe('The carrier request id (this operation id); pass it to shipments_get_redirect.'),
  redirect_status: redirectStatusSchema.nullable(),
  requested_address: postalAddressViewSchema
    .nullable()
    .describe('submitted: the address the carrier was asked to use.'),
  suggested_address: suggestedAddressSchema,
  corrected_fields: z
    .array(z.enum(ADDRESS_FIELDS))
    .max(ADDRESS_FIELDS.length)
    .describe(
      'requires_confirmation: fields the suggestion changes materially (street or postal code); empty otherwise.',
    ),
});
export type RedirectRequestResult = z.output<typeof redirectRequestResultSchema>;

/** A redirect result with nothing filled in yet beyond the order. */
export function emptyRedirectResult(orderId: string): RedirectRequestResult {
  return {
    order_id: orderId,
    shipment_id: null,
    tracking_id: null,
    carrier: null,
    request_id: null,
    redirect_status: null,
    requested_address: null,
    suggested_address: null,
    corrected_fields: [],
  };
}
