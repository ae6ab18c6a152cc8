import type { OrderErrorCode } from './order-errors.ts';
import type { OrderRecord } from './order-records.ts';
import type { Refusal } from './order-refusals.ts';
import type { OpenRedirectRequest } from './redirect-records.ts';

/**
 * Why a redirect cannot be requested for this order as the retailer sees it, or null when it can.
 * An earlier request whose outcome is unknown, or that the carrier has not decided yet, blocks a new
 * one: a second request for the same parcel is never sent while the first may still arrive.
 */
export function redirectRefusal(order: OrderRecord, requestId: string): Refusal | null {
  switch (order.state) {
    case 'pending':
    case 'address_change_allowed':
      return {
        code: 'ORDER_NOT_SHIPPED',
        message: 'The parcel has not left the retailer yet, so there is nothing to redirect.',
        resolution:
          'The address can still be changed directly: the customer can use orders_change_unshipped_address (with the version from orders_get).',
      };
    case 'locked_for_warehouse':
    case 'label_created':
      return carrierRefusal('PARCEL_NOT_YET_WITH_CARRIER', 'the parcel has not been picked up yet');
    case 'delivered':
      return carrierRefusal('SHIPMENT_DELIVERED', 'the parcel was already delivered');
    case 'cancelled':
      return {
        code: 'ORDER_CANCELLED',
        message: 'The order is cancelled.',
        resolution: 'There is nothing to redirect.',
      };
    case 'handed_to_carrier':
      break;
  }
  if (!order.shipment) return carrierRefusal('PARCEL_NOT_YET_WITH_CARRIER', 'no parcel is registered yet');
  if (order.pendingChangeId !== null) {
    return {
      code: 'ADDRESS_CHANGE_IN_PROGRESS',
      message: `An address change (operation ${order.pendingChangeId}) has not been confirmed by the warehouse, so the parcel's address is not known for sure.`,
      resolution: `Nothing was requested. Poll operations_get with operation_id ${order.pendingChangeId} until it settles, then read the order again with orders_get.`,
    };
  }
  const open = order.openRedirect;
  return open && open.requestId !== requestId ? openRedirectRefusal(open) : null;
}

/** The refusal for a parcel that already has a request in flight (unknown) or undecided at the carrier. */
export function openRedirectRefusal(open: OpenRedirectRequest): Refusal {
  if (open.status === 'sending') {
    return {
      code: 'REDIRECT_IN_PROGRESS',
      message: `An earlier redirect request for this parcel (operation ${open.requestId}) has not been confirmed by the carrier; it may still arrive.`,
      resolution: `Nothing was requested now. Poll operations_get with operation_id ${open.requestId} until it settles, then check shipments_get_redirect; do not send another request (with any key) meanwhile.`,
    };
  }
  return {
    code: 'REDIRECT_ALREADY_REQUESTED',
    message: `The parcel already has an open redirect request (request ${open.requestId}, ${open.carrierStatus ?? 'submitted'} at the carrier).`,
    resolution: `Nothing was requested now. Check it with shipments_get_redirect (request_id ${open.requestId}); a new request is possible only once the carrier declines it.`,
  };
}

const CARRIER_CODES: Readonly<Record<string, { code: OrderErrorCode; resolution: string }>> = {
  PARCEL_NOT_YET_WITH_CARRIER: {
    code: 'PARCEL_NOT_YET_WITH_CARRIER',
    resolution: 'Nothing was requested. Try again once orders_get shows handed_to_carrier.',
  },
  SHIPMENT_DELIVERED: {
    code: 'SHIPMENT_DELIVERED',
    resolution: 'Nothing was requested; tell the customer the parcel was delivered.',
  },
  REDIRECT_NOT_ELIGIBLE: {
    code: 'REDIRECT_NOT_ELIGIBLE',
    resolution:
      'Nothing was requested; tell the customer the carrier cannot redirect this parcel. Do not retry.',
  },
  REDIRECT_ALREADY_REQUESTED: {
    code: 'REDIRECT_ALREADY_REQUESTED',
    resolution:
      'Check the open request with shipments_get_redirect; a new one is possible once it is declined.',
  },
};

/** A refusal by the carrier's rules, in this domain's codes. */
export function carrierRefusal(carrierCode: string, reason: string): Refusal {
  const known = CARRIER_CODES[carrierCode] ?? CARRIER_CODES.REDIRECT_NOT_ELIGIBLE!;
  return {
    code: known.code,
    message: `The carrier cannot take this redirect: ${reason}.`,
    resolution: known.resolution,
  };
}
