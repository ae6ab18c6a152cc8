import { defineTool, idempotencyKeySchema } from 'toolgate';
import { z } from 'zod';
import type { AddressChangeService } from './address-change-service.ts';
import {
  CORRECTION_CONFIRM_WHEN,
  chosenAddress,
  correctionQuestion,
} from './address-correction-confirmation.ts';
import { withNormalizedAddress } from './address-fingerprint.ts';
import {
  addressChangeResultSchema,
  expectedOrderVersionSchema,
  orderIdSchema,
} from './order-contract-schemas.ts';
import { orderErrors } from './order-errors.ts';
import { postalAddressSchema } from './postal-address.ts';

const EXAMPLE_ADDRESS = {
  recipient_name: 'Alice Example',
  address_line_1: '12 Harbour Street',
  address_line_2: 'Apartment 4',
  locality: 'Bristol',
  postal_code: 'BS1 4DJ',
  country_code: 'GB',
};

/** orders_change_unshipped_address: replace the delivery address while the retailer still controls it. */
export function changeUnshippedAddressTool(service: AddressChangeService) {
  return defineTool({
    name: 'orders_change_unshipped_address',
    title: 'Change the delivery address of an order that has not shipped',
    description:
      "Replaces an order's delivery address in full, before the warehouse handoff (fulfilment state pending or " +
      'address_change_allowed). Use it once the customer has given the complete new address and you have read the ' +
      'order with orders_get; send that version as expected_order_version. Do not use it once the carrier has the ' +
      'parcel: that answers ORDER_WITH_CARRIER, and a support agent must ask the carrier with shipments_request_redirect ' +
      'instead. When address validation suggests a material correction (a different street or postal code), the customer ' +
      'chooses in their client between the suggested address and the one sent, and the chosen one is applied; a client ' +
      'that cannot ask its user gets requires_confirmation / CONFIRMATION_REQUIRED naming both addresses and a ' +
      'confirmation value for each: show both to the customer and call again with the same arguments and the confirmation ' +
      'of their choice. Results: completed (the warehouse confirmed; confirmed_address is now on the order, cosmetic fixes ' +
      'such as spelling out "St" are listed in warnings); rejected (nothing changed; follow code and resolution: stale ' +
      'version, handoff started, not served, restricted item, payment region, undeliverable, not found, the customer ' +
      'declined); outcome_unknown (the warehouse did not answer: do not claim success, poll operations_get or retry with ' +
      'the same idempotency_key).',
    kind: 'write',
    mutation: 'update',
    externalSystems: ['warehouse', 'address_validation'],
    version: '2.2.1',
    input: z.strictObject({
      order_id: orderIdSchema,
      expected_order_version: expectedOrderVersionSchema,
      new_address: postalAddressSchema,
      idempotency_key: idempotencyKeySchema,
      confirmation: z
        .string()
        .regex(/^[0-9a-f]{24}$/)
        .optional()
        .describe(
          'Only after a CONFIRMATION_REQUIRED answer: the confirmation value it named for the address the customer chose (24 lowercase hex). Omit otherwise.',
        ),
    }),
    output: addressChangeResultSchema,
    errors: [
      orderErrors.ORDER_NOT_FOUND,
      orderErrors.ORDER_STATE_CHANGED,
      orderErrors.WAREHOUSE_HANDOFF_STARTED,
      orderErrors.ORDER_WITH_CARRIER,
      orderErrors.ORDER_DELIVERED,
      orderErrors.ORDER_CANCELLED,
      orderErrors.ADDRESS_CHANGE_IN_PROGRESS,
      orderErrors.DESTINATION_NOT_SERVED,
      orderErrors.RESTRICTED_ITEM_DESTINATION,
      orderErrors.PAYMENT_NOT_VALID_FOR_DESTINATION,
      orderErrors.ADDRESS_UNDELIVERABLE,
      orderErrors.ADDRESS_CORRECTION_SUGGESTED,
      orderErrors.OPERATION_NOT_STARTED,
    ],
    scopes: ['orders:write'],
    timeoutMs: 10_000,
    sensitiveFields: ['new_address'],
    normalizeForFingerprint: withNormalizedAddress,
    notes: [
      'While the warehouse has not confirmed a change, the order keeps its previous address and orders_get shows the change under pending_address_change.',
    ],
    examples: [
      {
        title: 'Replace the address of an unshipped order',
        input: {
          order_id: 'ord_5f0c6a1e9b2d4c7a8e3f1b0d2c4a6e8f',
          expected_order_version: 3,
          new_address: EXAMPLE_ADDRESS,
          idempotency_key: 'addr-change-7f3a9c2e41b8',
        },
      },
    ],
    // Every client can relay the choice: the customer sits at the chat, and either address is one they gave or saw.
    confirm: {
      when: CORRECTION_CONFIRM_WHEN,
      fallback: 'agent',
      async ask(input, ctx) {
        const request = {
          orderId: input.order_id,
          expectedVersion: input.expected_order_version,
          newAddress: input.new_address,
        };
        const check = await service.correctionToConfirm(ctx.principal, request, ctx.signal);
        // Validation down: nobody can tell whether the customer must choose, so nothing starts.
        if (check.kind === 'unavailable') return { refuse: check.outcome };
        return check.kind === 'correction' ? correctionQuestion(check.correction, input.new_address) : null;
      },
    },
    handler: async (input, ctx) => {
      if (!ctx.operation)
        throw new Error('orders_change_unshipped_address runs only under a reserved operation');
      return service.change(
        ctx.principal,
        {
          orderId: input.order_id,
          expectedVersion: input.expected_order_version,
          newAddress: input.new_address,
        },
        ctx.operation.id,
        ctx.signal,
        ctx.log,
        chosenAddress(ctx.confirmation, input.new_address),
      );
    },
    reconcile: (operation, ctx) => service.reconcile(operation.id, ctx.signal),
    onReviewResolved: (operation, decision) => service.followReview(operation.id, decision),
  });
}
