import { sha256Hex } from 'toolgate';
import type { PaymentRegion } from './destination-rules.ts';
import type { FulfilmentState } from './fulfilment.ts';
import type { PostalAddress } from './postal-address.ts';

/** Deterministic demo ids: the same seed gives the same ids on every machine and every reset. */
export function demoId(prefix: 'ord_' | 'shp_', label: string): string {
  return `${prefix}${sha256Hex(`toolgate-demo-v1:${prefix}${label}`).slice(0, 32)}`;
}

export function trackingIdFor(shipmentId: string): string {
  return `PN${BigInt(`0x${shipmentId.slice(4, 16)}`)
    .toString()
    .padStart(15, '0')
    .slice(-12)}`;
}

export const DEMO_CARRIER = 'ParcelNet';

export interface DemoOrder {
  readonly label: string;
  readonly tenant: string;
  readonly owner: string;
  readonly state: FulfilmentState;
  readonly version: number;
  readonly address: PostalAddress;
  readonly paymentRegions: readonly PaymentRegion[];
  readonly items: readonly {
    sku: string;
    name: string;
    quantity: number;
    shipsOnlyTo: readonly string[] | null;
  }[];
  /** Whether the carrier allows redirects for the parcel (orders that reach the carrier). */
  readonly redirectEligible?: boolean;
  /** What a test or scenario can use this order for. */
  readonly tags: readonly string[];
}

const address = (
  recipient: string,
  line1: string,
  locality: string,
  postal: string,
  country: string,
  area: string | null = null,
): PostalAddress => ({
  recipient_name: recipient,
  address_line_1: line1,
  address_line_2: null,
  locality,
  administrative_area: area,
  postal_code: postal,
  country_code: country,
});

const ALICE = address('Alice Moreau', '221 Maple Avenue', 'Columbus', '43215', 'US', 'OH');
const BOB = address('Bob Hartley', '17 Canal Street', 'Manchester', 'M1 3HU', 'GB');
const CAROL = address('Carol Weber', 'Lindenstraße 12', 'Hamburg', '20095', 'DE');
const GINA = address('Gina Park', '88 Pine Road', 'Denver', '80202', 'US', 'CO');
const HEADPHONES = { sku: 'HP-200', name: 'Wireless headphones', quantity: 1, shipsOnlyTo: null };
const BOOKS = { sku: 'BK-017', name: 'Paperback set', quantity: 3, shipsOnlyTo: null };
const POWER_BANK = { sku: 'PB-20K', name: 'Power bank 20000 mAh', quantity: 1, shipsOnlyTo: ['US'] };

const order = (
  label: string,
  owner: string,
  state: FulfilmentState,
  version: number,
  rest: Partial<DemoOrder> = {},
): DemoOrder => {
  const tenant = owner.split('_')[1]!;
  return {
    label,
    tenant,
    owner,
    state,
    version,
    address: ALICE,
    paymentRegions: ['NA'],
    items: [HEADPHONES],
    tags: [],
    ...rest,
  };
};

/** The demo world: every fulfilment state, two tenants, restricted items and payment limits. */
export const DEMO_ORDERS: readonly DemoOrder[] = [
  order('alice-editable', 'cus_acme_alice', 'address_change_allowed', 3, { tags: ['happy_path'] }),
  order('alice-editable-2', 'cus_acme_alice', 'address_change_allowed', 2, { items: [HEADPHONES, BOOKS] }),
  order('alice-pending', 'cus_acme_alice', 'pending', 1),
  order('alice-locked', 'cus_acme_alice', 'locked_for_warehouse', 4),
  order('alice-label', 'cus_acme_alice', 'label_created', 5),
  order('alice-in-transit', 'cus_acme_alice', 'handed_to_carrier', 6, {
    redirectEligible: true,
    tags: ['redirect_eligible'],
  }),
  order('alice-delivered', 'cus_acme_alice', 'delivered', 7),
  order('alice-cancelled', 'cus_acme_alice', 'cancelled', 2),
  order('alice-restricted', 'cus_acme_alice', 'address_change_allowed', 2, {
    items: [POWER_BANK, HEADPHONES],
    paymentRegions: ['NA', 'UK', 'EU'],
    tags: ['restricted_item_us_only'],
  }),
  order('alice-payment-na', 'cus_acme_alice', 'address_change_allowed', 2, { tags: ['payment_na_only'] }),
  order('bob-editable', 'cus_acme_bob', 'address_change_allowed', 2, {
    address: BOB,
    paymentRegions: ['UK'],
  }),
  order('bob-in-transit', 'cus_acme_bob', 'handed_to_carrier', 5, {
    address: BOB,
    paymentRegions: ['UK'],
    redirectEligible: true,
    tags: ['redirect_eligible'],
  }),
  order('bob-in-transit-signature', 'cus_acme_bob', 'handed_to_carrier', 5, {
    address: BOB,
    paymentRegions: ['UK'],
    redirectEligible: false,
    tags: ['redirect_not_eligible'],
  }),
  order('carol-editable', 'cus_acme_carol', 'address_change_allowed', 2, {
    address: CAROL,
    paymentRegions: ['EU'],
  }),
  order('carol-pending', 'cus_acme_carol', 'pending', 1, { address: CAROL, paymentRegions: ['EU'] }),
  order('carol-in-transit', 'cus_acme_carol', 'handed_to_carrier', 4, {
    address: CAROL,
    paymentRegions: ['EU'],
    redirectEligible: true,
    tags: ['redirect_eligible'],
  }),
  order('gina-editable', 'cus_globex_gina', 'address_change_allowed', 2, { address: GINA }),
  order('gina-in-transit', 'cus_globex_gina', 'handed_to_carrier', 4, {
    address: GINA,
    redirectEligible: true,
    tags: ['redirect_eligible'],
  }),
];

/** Addresses that trigger each address validation case (see docs/test-api.md). */
export const ADDRESS_SAMPLES: Readonly<Record<string, PostalAddress>> = {
  clean_us: address('Alice Moreau', '350 Oak Street', 'Columbus', '43215', 'US', 'OH'),
  cosmetic_us: {
    ...address('alice moreau', '350  oak st', 'columbus', '43215', 'US', 'oh'),
    address_line_2: 'apt 4',
  },
  material_postal_code_us: address(
    'Alice Moreau',
    '742 Evergreen Terrace',
    'Springfield',
    '62701',
    'US',
    'IL',
  ),
  material_street_us: address('Alice Moreau', '742 Evergren Terrace', 'Springfield', '62704', 'US', 'IL'),
  suggested_us: address('Alice Moreau', '742 Evergreen Terrace', 'Springfield', '62704', 'US', 'IL'),
  undeliverable_us: address('Alice Moreau', '1 Nowhere Lane', 'Columbus', '43215', 'US', 'OH'),
  restricted_item_ca: address('Alice Moreau', '10 Bay Street', 'Toronto', 'M5J 2N8', 'CA', 'ON'),
  payment_region_gb: address('Alice Moreau', '5 Park Lane', 'London', 'W1K 1AA', 'GB'),
  not_served_jp: address('Alice Moreau', '1-1 Chiyoda', 'Tokyo', '100-0001', 'JP'),
  clean_gb: address('Bob Hartley', '48 Queen Street', 'Manchester', 'M2 5HX', 'GB'),
  clean_de: address('Carol Weber', 'Schillerstraße 4', 'Hamburg', '20099', 'DE'),
};
