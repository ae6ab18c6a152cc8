import { compiledSchema, textSchema } from 'toolgate';
import { z } from 'zod';
import { type AddressText, type PostalAddress, postalAddressObject } from './systems/postal-address.ts';

export type { PostalAddress };

/** Agent input: visible text only (no control or bidirectional characters), refused before anything runs. */
const typedText: AddressText = (min, max) => textSchema({ min, max });
/** Addresses the shop already holds were checked on the way in; their published shape stays as it was. */
const heldText: AddressText = (min, max) => z.string().trim().min(min).max(max);

const REPLACES = 'A complete postal address; it replaces the previous one in full.';

/**
 * A closed postal address as an agent sends it: every field bounded, names and lines visible text
 * only, nothing else accepted.
 */
export const postalAddressSchema = postalAddressObject(typedText).describe(REPLACES);

/** A postal address as the shop holds and reports it (results, stored rows). */
export const postalAddressViewSchema = postalAddressObject(heldText).describe(REPLACES);

/** Parses an address stored as JSON by this domain; a malformed row is a programmer error. */
export function parseStoredAddress(json: string): PostalAddress {
  return compiledSchema(postalAddressViewSchema).parse(JSON.parse(json));
}
