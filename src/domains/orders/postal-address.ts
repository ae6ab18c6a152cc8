import { z } from 'zod';
import type { PostalAddress as SystemsAddress } from '../../external/postal-address.ts';

/**
 * A closed postal address: every field bounded, nothing else accepted. What the agent gives is exactly
 * what the warehouse and carrier take (checked by `satisfies`).
 */
export const postalAddressSchema = z
  .strictObject({
    recipient_name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('Person or organisation receiving the parcel, 1-100 characters.'),
    address_line_1: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('House number and street (or PO box), 1-100 characters.'),
    address_line_2: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullable()
      .default(null)
      .describe('Apartment, suite, floor or building, 1-100 characters; null when there is none.'),
    locality: z.string().trim().min(1).max(80).describe('City, town or postal locality, 1-80 characters.'),
    administrative_area: z
      .string()
      .trim()
      .min(1)
      .max(80)
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
  })
  .describe(
    'A complete postal address; it replaces the previous one in full.',
  ) satisfies z.ZodType<SystemsAddress>;

export type PostalAddress = z.output<typeof postalAddressSchema>;

/** Parses an address stored as JSON by this domain; a malformed row is a programmer error. */
export function parseStoredAddress(json: string): PostalAddress {
  return postalAddressSchema.parse(JSON.parse(json));
}
