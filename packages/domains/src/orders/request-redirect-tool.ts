import { defineTool, idempotencyKeySchema } from 'toolgate';
import { z } from 'zod';
import { withNormalizedAddress } from './address-fingerprint.ts';
import { orderIdSchema, redirectRequestResultSchema } from './order-contract-schemas.ts';
import { orderErrors } from './order-errors.ts';
import { postalAddressSchema } from './postal-address.ts';
import type { RedirectService } from './redirect-service.ts';

/** shipments_request_redirect: ask the carrier to send a parcel it already has somewhere else. */
export function requestRedirectTool(service: RedirectService) {
  return defineTool({
    name: 'shipments_request_redirect',
    title: 'Ask the carrier to redirect a parcel',
    description:
      'Asks the carrier to deliver a parcel it already has (fulfilment state handed_to_carrier) to a new address ' +
      'in the same country. For support agents. The carrier decides later, so success is submitted with a ' +
      'request_id, never completed: tell the customer the redirect was requested, not that it is done, and check ' +
      'the decision with shipments_get_redirect. Do not use it before the parcel has left: while the order is ' +
      'pending or address_change_allowed it answers ORDER_NOT_SHIPPED and the address is changed with ' +
      'orders_change_unshipped_address instead; during the warehouse handoff it answers PARCEL_NOT_YET_WITH_CARRIER. ' +
      'The carrier may refuse (REDIRECT_NOT_ELIGIBLE, SHIPMENT_DELIVERED, REDIRECT_ALREADY_REQUESTED). Address ' +
      'validation works as for address changes (requires_confirmation with suggested_address). On outcome_unknown, ' +
      'poll operations_get or retry with the same idempotency_key; never send a second request with a new key: ' +
      'while an earlier request of the parcel has no established outcome the answer is REDIRECT_IN_PROGRESS naming ' +
      'the operation to poll, and while the carrier has not decided an earlier one it is REDIRECT_ALREADY_REQUESTED ' +
      '(orders_get shows such a request under pending_redirect).',
    kind: 'request',
    mutation: 'update',
    externalSystems: ['carrier', 'address_validation'],
    version: '2.1.1',
    input: z.strictObject({
      order_id: orderIdSchema.describe(
        'The order whose parcel should be redirected (ord_ + 32 lowercase hex).',
      ),
      new_address: postalAddressSchema,
      idempotency_key: idempotencyKeySchema,
    }),
    output: redirectRequestResultSchema,
    errors: [
      orderErrors.ORDER_NOT_FOUND,
      orderErrors.ORDER_NOT_SHIPPED,
      orderErrors.PARCEL_NOT_YET_WITH_CARRIER,
      orderErrors.SHIPMENT_DELIVERED,
      orderErrors.ORDER_CANCELLED,
      orderErrors.REDIRECT_NOT_ELIGIBLE,
      orderErrors.REDIRECT_ALREADY_REQUESTED,
      orderErrors.REDIRECT_IN_PROGRESS,
      orderErrors.ADDRESS_CHANGE_IN_PROGRESS,
      orderErrors.ADDRESS_UNDELIVERABLE,
      orderErrors.ADDRESS_CORRECTION_SUGGESTED,
      orderErrors.OPERATION_NOT_STARTED,
    ],
    scopes: ['shipments:redirect'],
    timeoutMs: 10_000,
    sensitiveFields: ['new_address'],
    normalizeForFingerprint: withNormalizedAddress,
    examples: [
      {
        title: 'Redirect a parcel in transit',
        input: {
          order_id: 'ord_5f0c6a1e9b2d4c7a8e3f1b0d2c4a6e8f',
          new_address: {
            recipient_name: 'Alice Example',
            address_line_1: '48 Queen Street',
            locality: 'Bristol',
            postal_code: 'BS1 4JZ',
            country_code: 'GB',
          },
          idempotency_key: 'redirect-2c9e7b1d55aa',
        },
      },
    ],
    handler: async (input, ctx) => {
      if (!ctx.operation) throw new Error('shipments_request_redirect runs only under a reserved operation');
      return service.request(
        ctx.principal,
        input.order_id,
        input.new_address,
        ctx.operation.id,
        ctx.signal,
        ctx.log,
      );
    },
    reconcile: (operation, ctx) => service.reconcile(operation.id, ctx.signal),
    onReviewResolved: (operation, decision) => service.followReview(operation.id, decision),
  });
}
