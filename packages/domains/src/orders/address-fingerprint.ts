import type { PostalAddress } from './postal-address.ts';
import { normalizeAddress } from './systems/address-validation/address-normalizer.ts';

/**
 * The request with its new address in the cosmetic form address validation gives it (spacing,
 * capitalisation, street and unit abbreviations written out, postal code spelling), so that the
 * idempotency key is bound to the normalized address: two spellings of one address are one request,
 * while a different street number, street or postal code stays a different request.
 */
export function withNormalizedAddress<T extends { readonly new_address: PostalAddress }>(input: T): T {
  return { ...input, new_address: normalizeAddress(input.new_address).address };
}
