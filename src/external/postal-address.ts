import { canonicalJson, sha256Hex } from '../contract/canonical-json.ts';

/**
 * A postal address as the simulated warehouse, carrier and address validation speak it. The orders
 * domain's agent-facing schema produces exactly this shape; the systems own the type, as a real
 * carrier API would.
 */
export interface PostalAddress {
  recipient_name: string;
  address_line_1: string;
  address_line_2: string | null;
  locality: string;
  administrative_area: string | null;
  postal_code: string;
  country_code: string;
}

export const ADDRESS_FIELDS = [
  'recipient_name',
  'address_line_1',
  'address_line_2',
  'locality',
  'administrative_area',
  'postal_code',
  'country_code',
] as const satisfies readonly (keyof PostalAddress)[];
export type AddressField = (typeof ADDRESS_FIELDS)[number];

/**
 * A short, stable digest of an address. External systems and the effects ledger keep this (with the
 * country and postal code) instead of the address itself, so tests can compare addresses without the
 * ledger ever holding one.
 */
export function addressDigest(address: PostalAddress): string {
  return sha256Hex(canonicalJson(address)).slice(0, 16);
}
