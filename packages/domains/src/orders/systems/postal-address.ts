import { canonicalJson, sha256Hex } from 'toolgate';
import { z } from 'zod';

/** How an address's free-text fields are checked: the orders domain checks agent input more strictly than text it holds. */
export type AddressText = (min: number, max: number) => z.ZodString;

/**
 * A postal address as the simulated warehouse, carrier and address validation speak it, and as the
 * orders domain publishes it (with its own checks on the free-text fields): one definition, so what an
 * agent gives is exactly what the systems take. The systems own it, as a real carrier API would.
 */
export function postalAddressObject(text: AddressText) {
  return z.strictObject({
    recipient_name: text(1, 100).describe('Person or organisation receiving the parcel, 1-100 characters.'),
    address_line_1: text(1, 100).describe('House number and street (or PO box), 1-100 characters.'),
    address_line_2: text(1, 100)
      .nullable()
      .default(null)
      .describe('Apartment, suite, floor or building, 1-100 characters; null when there is none.'),
    locality: text(1, 80).describe('City, town or postal locality, 1-80 characters.'),
    administrative_area: text(1, 80)
      .nullable()
      .default(null)
      .describe('State, province or region where the country uses one (e.g. "CA", "ON"); otherwise null.'),
    postal_code: z
      .string()
      .trim()
      .min(2)
      .max(12)
      .regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/)
      .describe('Postal or ZIP code, 2-12 letters, digits, spaces or hyphens.'),
    country_code: z
      .string()
      .length(2)
      .regex(/^[A-Z]{2}$/)
      .describe('Two-letter ISO 3166-1 alpha-2 country code in capitals, e.g. "US", "GB", "DE".'),
  });
}

export type PostalAddress = z.output<ReturnType<typeof postalAddressObject>>;

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
