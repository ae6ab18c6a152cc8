import { z } from 'zod';
import { compiledSchema } from '../../contract/compiled-schema.ts';
import { textSchema } from '../../contract/schema-helpers.ts';
import type { PostalAddress as SystemsAddress } from '../../external/postal-address.ts';

/** How the free-text fields of an address are checked: as agent input, or as text the shop holds. */
type TextField = (min: number, max: number) => z.ZodString;

/** Agent input: visible text only (no control or bidirectional characters), refused before anything runs. */
const typedText: TextField = (min, max) => textSchema({ min, max });
/** Addresses the shop already holds were checked on the way in; their published shape stays as it was. */
const heldText: TextField = (min, max) => z.string().trim().min(min).max(max);

function postalAddress(text: TextField) {
  return z
    .strictObject({
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
    })
    .describe('A complete postal address; it replaces the previous one in full.');
}

/**
 * A closed postal address as an agent sends it: every field bounded, names and lines visible text
 * only, nothing else accepted. What the agent gives is exactly what the warehouse and carrier take
 * (checked by `satisfies`).
 */
export const postalAddressSchema = postalAddress(typedText) satisfies z.ZodType<SystemsAddress>;

/** A postal address as the shop holds and reports it (results, stored rows). */
export const postalAddressViewSchema = postalAddress(heldText) satisfies z.ZodType<SystemsAddress>;

export type PostalAddress = z.output<typeof postalAddressSchema>;

/** Parses an address stored as JSON by this domain; a malformed row is a programmer error. */
export function parseStoredAddress(json: string): PostalAddress {
  return compiledSchema(postalAddressViewSchema).parse(JSON.parse(json));
}
