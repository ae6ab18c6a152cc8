import type { FaultInjector } from '@toolgate/simulation';
import { throughFaults } from '@toolgate/simulation';
import type { AddressField, PostalAddress } from '../postal-address.ts';
import {
  DIRECTORY,
  editDistance,
  splitStreetLine,
  UNDELIVERABLE_MARKER,
  UNDELIVERABLE_POSTAL_CODE,
} from './address-directory.ts';
import { type Normalization, normalizeAddress } from './address-normalizer.ts';

export const ADDRESS_VALIDATION_SYSTEM = 'address_validation';

/** What the validator concluded about one address. */
export type AddressVerdict =
  | { readonly kind: 'valid'; readonly address: PostalAddress; readonly normalizations: Normalization[] }
  | {
      readonly kind: 'correction';
      /** The address the validator would deliver to; the caller must confirm it before use. */
      readonly suggested: PostalAddress;
      readonly correctedFields: AddressField[];
      readonly normalizations: Normalization[];
    }
  | { readonly kind: 'undeliverable'; readonly reason: string };

/**
 * The simulated address validation service. Stateless and deterministic: cosmetic fixes are applied,
 * a material correction (street or postal code) is only suggested, and marked addresses are refused.
 * It changes nothing anywhere, so it records no effects; armed faults still apply to its calls.
 */
export class AddressValidationService {
  constructor(private readonly faults: FaultInjector) {}

  async validate(address: PostalAddress, signal: AbortSignal): Promise<AddressVerdict> {
    return throughFaults(
      this.faults,
      ADDRESS_VALIDATION_SYSTEM,
      { action: 'validate', attributes: { country_code: address.country_code } },
      signal,
      async () => judgeAddress(address),
    );
  }
}

/** The validator's rules as a pure function of the address. */
export function judgeAddress(input: PostalAddress): AddressVerdict {
  const { address, changes } = normalizeAddress(input);
  if (UNDELIVERABLE_MARKER.test(address.address_line_1)) {
    return { kind: 'undeliverable', reason: 'the street is not known to any carrier route' };
  }
  if (UNDELIVERABLE_POSTAL_CODE.test(address.postal_code)) {
    return { kind: 'undeliverable', reason: 'the postal code does not exist' };
  }
  const line = splitStreetLine(address.address_line_1);
  const byStreet = DIRECTORY.find(
    (entry) =>
      entry.country === address.country_code &&
      sameText(entry.locality, address.locality) &&
      sameText(entry.street, line.street),
  );
  if (byStreet && byStreet.postalCode !== address.postal_code) {
    return correction(address, changes, { postal_code: byStreet.postalCode });
  }
  const byPostalCode = DIRECTORY.find(
    (entry) => entry.country === address.country_code && entry.postalCode === address.postal_code,
  );
  if (byPostalCode && !sameText(byPostalCode.street, line.street)) {
    const distance = editDistance(byPostalCode.street, line.street);
    if (distance >= 1 && distance <= 2) {
      const street = line.number ? `${line.number} ${byPostalCode.street}` : byPostalCode.street;
      return correction(address, changes, { address_line_1: street });
    }
  }
  return { kind: 'valid', address, normalizations: changes };
}

function correction(
  address: PostalAddress,
  normalizations: Normalization[],
  corrected: Partial<Pick<PostalAddress, 'postal_code' | 'address_line_1'>>,
): AddressVerdict {
  return {
    kind: 'correction',
    suggested: { ...address, ...corrected },
    correctedFields: Object.keys(corrected) as AddressField[],
    normalizations,
  };
}

function sameText(a: string, b: string): boolean {
  return a.localeCompare(b, 'en', { sensitivity: 'accent' }) === 0;
}
