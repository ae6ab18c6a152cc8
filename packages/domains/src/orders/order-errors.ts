import { defineErrorCodes } from 'toolgate';

/** The stable codes of the orders and shipments tools. Published; never reworded in meaning. */
export const orderErrors = defineErrorCodes({
  ORDER_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description:
      'No order with this id is visible to the caller (it may not exist, or belong to someone else). Check the id with the customer; never guess one.',
  },
  ORDER_STATE_CHANGED: {
    category: 'conflict',
    retryable: false,
    description:
      'The order changed since it was read (expected_order_version is stale). Nothing was changed; read it again with orders_get and decide anew.',
  },
  WAREHOUSE_HANDOFF_STARTED: {
    category: 'state',
    retryable: false,
    description:
      'The warehouse has started the handoff; the retailer can no longer change the address and the carrier does not have the parcel yet.',
  },
  ORDER_WITH_CARRIER: {
    category: 'state',
    retryable: false,
    description:
      'The carrier already has the parcel; a support agent can ask for a redirect with shipments_request_redirect.',
  },
  ORDER_DELIVERED: {
    category: 'state',
    retryable: false,
    description: 'The order has been delivered; its address can no longer change.',
  },
  ORDER_CANCELLED: {
    category: 'state',
    retryable: false,
    description: 'The order is cancelled; there is nothing to deliver.',
  },
  ADDRESS_CHANGE_IN_PROGRESS: {
    category: 'conflict',
    retryable: false,
    description:
      'Another address change for this order is waiting for the warehouse; check it with operations_get before trying again.',
  },
  DESTINATION_NOT_SERVED: {
    category: 'policy',
    retryable: false,
    description: 'The shop does not deliver to that country; ask for an address in a served country.',
  },
  RESTRICTED_ITEM_DESTINATION: {
    category: 'policy',
    retryable: false,
    description: 'An item in the order may not be shipped to that country.',
  },
  PAYMENT_NOT_VALID_FOR_DESTINATION: {
    category: 'policy',
    retryable: false,
    description: "The order's payment does not cover the destination's region.",
  },
  ADDRESS_UNDELIVERABLE: {
    category: 'validation',
    retryable: false,
    description: 'Address validation found the address undeliverable; ask the customer for another address.',
  },
  ADDRESS_CORRECTION_SUGGESTED: {
    category: 'confirmation',
    retryable: false,
    description:
      'Address validation would change the street or postal code. Nothing was changed; show suggested_address to the customer and, if they accept it, call again with it and a new idempotency_key.',
  },
  OPERATION_NOT_STARTED: {
    category: 'state',
    retryable: false,
    description:
      'The operation stopped before it reached the warehouse or carrier; nothing changed. Read the current state and start again with a new idempotency_key.',
  },
  ORDER_NOT_SHIPPED: {
    category: 'state',
    retryable: false,
    description:
      'The parcel has not left the retailer; while the order is editable use orders_change_unshipped_address instead of a redirect.',
  },
  PARCEL_NOT_YET_WITH_CARRIER: {
    category: 'state',
    retryable: false,
    description:
      'The warehouse handoff has started but the carrier has not picked the parcel up; a redirect can be requested once the order is handed_to_carrier.',
  },
  SHIPMENT_DELIVERED: {
    category: 'state',
    retryable: false,
    description: 'The carrier has delivered the parcel; it can no longer be redirected.',
  },
  REDIRECT_NOT_ELIGIBLE: {
    category: 'policy',
    retryable: false,
    description:
      "The carrier's rules do not allow redirecting this parcel (service level, or a destination in another country).",
  },
  REDIRECT_ALREADY_REQUESTED: {
    category: 'conflict',
    retryable: false,
    description: 'The parcel already has an open redirect request; check it with shipments_get_redirect.',
  },
  REDIRECT_IN_PROGRESS: {
    category: 'conflict',
    retryable: false,
    description:
      'An earlier redirect request for this parcel has no established outcome yet (it may still reach the carrier); nothing was requested. Poll operations_get with the operation the resolution names until it settles; never send a new request meanwhile.',
  },
  REDIRECT_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description: 'No redirect request with this id exists for this order.',
  },
});

export type OrderErrorCode = keyof typeof orderErrors;
