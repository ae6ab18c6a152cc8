import { describe, expect, it } from 'vitest';
import { ADDRESS_SAMPLES } from '../../src/orders/demo-orders.ts';
import type { PostalAddress } from '../../src/orders/postal-address.ts';
import {
  formatPostalCode,
  normalizeAddress,
} from '../../src/orders/systems/address-validation/address-normalizer.ts';
import { judgeAddress } from '../../src/orders/systems/address-validation/address-validation-service.ts';

const base: PostalAddress = ADDRESS_SAMPLES.clean_us!;

describe('address validation rules', () => {
  it('accepts an address that matches no rule unchanged', () => {
    expect(judgeAddress(base)).toEqual({ kind: 'valid', address: base, normalizations: [] });
  });

  it('applies cosmetic fixes and lists each one', () => {
    const verdict = judgeAddress(ADDRESS_SAMPLES.cosmetic_us!);
    expect(verdict).toMatchObject({
      kind: 'valid',
      address: {
        recipient_name: 'Alice Moreau',
        address_line_1: '350 Oak Street',
        address_line_2: 'Apartment 4',
        locality: 'Columbus',
        administrative_area: 'OH',
      },
    });
    const kinds = verdict.kind === 'valid' ? verdict.normalizations.map((n) => `${n.field}:${n.kind}`) : [];
    expect(kinds).toEqual(
      expect.arrayContaining([
        'address_line_1:spacing',
        'address_line_1:case',
        'address_line_1:abbreviation',
        'address_line_2:abbreviation',
        'administrative_area:case',
      ]),
    );
  });

  it('expands street types only at the end of a line, keeping directions and "St" as a first word', () => {
    const line = (address_line_1: string) =>
      normalizeAddress({ ...base, address_line_1 }).address.address_line_1;
    expect(line('1600 pennsylvania ave nw')).toBe('1600 Pennsylvania Avenue NW');
    expect(line('12 St Albans Rd.')).toBe('12 St Albans Road');
    expect(line('5 Main St')).toBe('5 Main Street');
    expect(line('Main')).toBe('Main');
  });

  it('writes postal codes the way each country does without changing them', () => {
    expect(formatPostalCode('sw1a2aa', 'GB')).toBe('SW1A 2AA');
    expect(formatPostalCode('m5v2t6', 'CA')).toBe('M5V 2T6');
    expect(formatPostalCode('1012ab', 'NL')).toBe('1012 AB');
    expect(formatPostalCode('627041234', 'US')).toBe('62704-1234');
    expect(formatPostalCode('10117', 'DE')).toBe('10117');
  });

  it('suggests the directory postal code for a known street, and the directory street for a near miss', () => {
    expect(judgeAddress(ADDRESS_SAMPLES.material_postal_code_us!)).toMatchObject({
      kind: 'correction',
      suggested: ADDRESS_SAMPLES.suggested_us,
      correctedFields: ['postal_code'],
    });
    expect(judgeAddress(ADDRESS_SAMPLES.material_street_us!)).toMatchObject({
      kind: 'correction',
      suggested: ADDRESS_SAMPLES.suggested_us,
      correctedFields: ['address_line_1'],
    });
    // The suggestion itself passes, so accepting it completes.
    expect(judgeAddress(ADDRESS_SAMPLES.suggested_us!).kind).toBe('valid');
    // A cosmetic spelling of a directory street is not a material correction.
    expect(judgeAddress({ ...ADDRESS_SAMPLES.suggested_us!, address_line_1: '742 evergreen ter' }).kind).toBe(
      'valid',
    );
    // A street far from the directory's is left alone.
    expect(judgeAddress({ ...ADDRESS_SAMPLES.suggested_us!, address_line_1: '9 Lakeside Drive' }).kind).toBe(
      'valid',
    );
  });

  it('refuses marked addresses as undeliverable', () => {
    expect(judgeAddress(ADDRESS_SAMPLES.undeliverable_us!).kind).toBe('undeliverable');
    expect(judgeAddress({ ...base, postal_code: '00000' }).kind).toBe('undeliverable');
  });
});
