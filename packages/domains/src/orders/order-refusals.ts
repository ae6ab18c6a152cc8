import { EDITABLE_STATES } from './fulfilment.ts';
import type { OrderErrorCode } from './order-errors.ts';
import type { OrderRecord } from './order-records.ts';

/** A domain refusal: a stable code, one sentence for the agent, and the next step. */
export interface Refusal {
  readonly code: OrderErrorCode;
  readonly message: string;
  readonly resolution: string;
}

export const ORDER_NOT_FOUND: Refusal = {
  code: 'ORDER_NOT_FOUND',
  message: 'No order with this id is visible to you.',
  resolution:
    'Check the order id with the customer (ord_ followed by 32 lowercase hex characters); do not guess ids.',
};

export const WAREHOUSE_HANDOFF_STARTED: Refusal = {
  code: 'WAREHOUSE_HANDOFF_STARTED',
  message: 'The warehouse has started preparing this order, so its address can no longer be changed.',
  resolution:
    'Nothing was changed. Once the order is handed_to_carrier a support agent can request a redirect with shipments_request_redirect.',
};

/**
 * Why the retailer may not replace this order's address right now, or null when it may. State is
 * checked before the version so a warehouse lock between read and write names the handoff, not just
 * "stale".
 */
export function addressChangeRefusal(
  order: OrderRecord,
  expectedVersion: number,
  operationId: string | null,
): Refusal | null {
  switch (order.state) {
    case 'cancelled':
      return {
        code: 'ORDER_CANCELLED',
        message: 'The order is cancelled.',
        resolution: 'Tell the customer; there is nothing to deliver.',
      };
    case 'delivered':
      return {
        code: 'ORDER_DELIVERED',
        message: 'The order has already been delivered.',
        resolution: 'Tell the customer the parcel was delivered; the address can no longer change.',
      };
    case 'handed_to_carrier':
      return {
        code: 'ORDER_WITH_CARRIER',
        message: 'The carrier already has this parcel, so the retailer can no longer change its address.',
        resolution:
          'Use shipments_request_redirect (support agents) to ask the carrier for a redirect; do not tell the customer the address was changed.',
      };
    case 'locked_for_warehouse':
    case 'label_created':
      return WAREHOUSE_HANDOFF_STARTED;
    default:
      break;
  }
  if (!EDITABLE_STATES.includes(order.state)) throw new Error(`unhandled fulfilment state ${order.state}`);
  if (order.pendingChangeId !== null && order.pendingChangeId !== operationId) {
    return {
      code: 'ADDRESS_CHANGE_IN_PROGRESS',
      message: `Another address change (operation ${order.pendingChangeId}) is waiting for the warehouse.`,
      resolution: 'Check that operation with operations_get, then read the order again before changing it.',
    };
  }
  if (order.version !== expectedVersion) {
    return {
      code: 'ORDER_STATE_CHANGED',
      message: `The order changed after it was read (version ${expectedVersion} expected, now ${order.version}).`,
      resolution:
        'Nothing was changed. Read the order again with orders_get, check it still applies, then call with the new version.',
    };
  }
  return null;
}
