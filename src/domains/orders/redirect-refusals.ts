import type { OrderErrorCode } from './order-errors.ts';
import type { OrderRecord } from './order-records.ts';
import type { Refusal } from './order-refusals.ts';

/** Why a redirect cannot be requested for this order as the retailer sees it, or null when it can. */
export function redirectRefusal(order: OrderRecord): Refusal | null {
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
      return order.shipment
        ? null
        : carrierRefusal('PARCEL_NOT_YET_WITH_CARRIER', 'no parcel is registered yet');
  }
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
