/**
 * Where an order may be delivered: the tenant must serve the country, every item must be allowed
 * there, and the order's payment must be valid for the country's region. Pure functions of the order
 * and the destination, so the service can apply them inside the transaction that commits the change.
 */

/** Countries each tenant delivers to. */
export const SERVED_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  acme: ['US', 'CA', 'GB', 'IE', 'DE', 'FR', 'NL', 'ES', 'IT'],
  globex: ['US', 'CA'],
};

export const PAYMENT_REGIONS = ['NA', 'UK', 'EU'] as const;
export type PaymentRegion = (typeof PAYMENT_REGIONS)[number];

const REGION_OF: Readonly<Record<string, PaymentRegion>> = {
  US: 'NA',
  CA: 'NA',
  GB: 'UK',
  IE: 'EU',
  DE: 'EU',
  FR: 'EU',
  NL: 'EU',
  ES: 'EU',
  IT: 'EU',
};

export interface OrderForDestination {
  readonly tenant: string;
  /** Regions the order's payment is authorised for. */
  readonly paymentRegions: readonly PaymentRegion[];
  readonly items: readonly { readonly sku: string; readonly shipsOnlyTo: readonly string[] | null }[];
}

export type DestinationProblem =
  | { code: 'DESTINATION_NOT_SERVED'; message: string; resolution: string }
  | { code: 'RESTRICTED_ITEM_DESTINATION'; message: string; resolution: string }
  | { code: 'PAYMENT_NOT_VALID_FOR_DESTINATION'; message: string; resolution: string };

/** The first rule the destination breaks, or null when the order may go there. */
export function destinationProblem(order: OrderForDestination, country: string): DestinationProblem | null {
  const served = SERVED_COUNTRIES[order.tenant] ?? [];
  if (!served.includes(country)) {
    return {
      code: 'DESTINATION_NOT_SERVED',
      message: `This shop does not deliver to ${country}.`,
      resolution: `Ask the customer for an address in one of: ${served.join(', ')}.`,
    };
  }
  const restricted = order.items.filter(
    (item) => item.shipsOnlyTo !== null && !item.shipsOnlyTo.includes(country),
  );
  if (restricted.length > 0) {
    return {
      code: 'RESTRICTED_ITEM_DESTINATION',
      message: `Item(s) ${restricted.map((i) => i.sku).join(', ')} cannot be shipped to ${country}.`,
      resolution:
        'Ask the customer for an address in a country where every item may be shipped, or contact support.',
    };
  }
  const region = REGION_OF[country];
  if (!region || !order.paymentRegions.includes(region)) {
    return {
      code: 'PAYMENT_NOT_VALID_FOR_DESTINATION',
      message: `The order's payment is not valid for deliveries to ${country}.`,
      resolution: `Ask for an address in a region the payment covers (${order.paymentRegions.join(', ')}); otherwise the customer must pay again for the new region.`,
    };
  }
  return null;
}
