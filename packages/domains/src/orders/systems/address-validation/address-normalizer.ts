import type { AddressField, PostalAddress } from '../postal-address.ts';

/** One cosmetic change: the meaning of the address is the same before and after. */
export interface Normalization {
  readonly field: AddressField;
  readonly kind: 'spacing' | 'case' | 'abbreviation' | 'postal_code_format';
  readonly detail: string;
}

/** Street-type abbreviations, expanded when they end an address line (optionally before a direction). */
const STREET_TYPES: Readonly<Record<string, string>> = {
  st: 'Street',
  ave: 'Avenue',
  av: 'Avenue',
  rd: 'Road',
  blvd: 'Boulevard',
  dr: 'Drive',
  ln: 'Lane',
  ct: 'Court',
  pl: 'Place',
  sq: 'Square',
  hwy: 'Highway',
  ter: 'Terrace',
};

/** Unit designators, expanded when they start an address line. */
const UNIT_TYPES: Readonly<Record<string, string>> = {
  apt: 'Apartment',
  ste: 'Suite',
  fl: 'Floor',
  bldg: 'Building',
};

const DIRECTIONS = new Set(['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW']);
const TEXT_FIELDS = ['recipient_name', 'address_line_1', 'address_line_2', 'locality'] as const;

/**
 * Applies the cosmetic rules (documented in docs/test-api.md): spacing, all-lower or all-upper text
 * to title case, street and unit abbreviations, postal code spelling. Never changes what the address
 * points to.
 */
export function normalizeAddress(input: PostalAddress): { address: PostalAddress; changes: Normalization[] } {
  const changes: Normalization[] = [];
  const address: PostalAddress = { ...input };
  for (const field of TEXT_FIELDS) {
    const original = address[field];
    if (original === null) continue;
    let value = original.replace(/\s+/g, ' ').trim();
    if (value !== original) changes.push({ field, kind: 'spacing', detail: 'extra spaces removed' });
    const cased = titleCaseIfUniform(value, field === 'address_line_1' || field === 'address_line_2');
    if (cased !== value) changes.push({ field, kind: 'case', detail: 'capitalisation corrected' });
    value = cased;
    if (field === 'address_line_1' || field === 'address_line_2') {
      const expanded = expandAbbreviations(value);
      for (const [from, to] of expanded.expansions) {
        changes.push({ field, kind: 'abbreviation', detail: `"${from}" written out as "${to}"` });
      }
      value = expanded.text;
    }
    address[field] = value;
  }
  const area = address.administrative_area;
  if (area !== null && area.length <= 3 && area !== area.toUpperCase()) {
    address.administrative_area = area.toUpperCase();
    changes.push({ field: 'administrative_area', kind: 'case', detail: 'region code in capitals' });
  }
  const postal = formatPostalCode(address.postal_code, address.country_code);
  if (postal !== address.postal_code) {
    address.postal_code = postal;
    changes.push({ field: 'postal_code', kind: 'postal_code_format', detail: `written as "${postal}"` });
  }
  return { address, changes };
}

/** The postal code as the country writes it; the characters that identify the area stay the same. */
export function formatPostalCode(code: string, country: string): string {
  const compact = code.replace(/[\s-]+/g, '').toUpperCase();
  if (country === 'GB' && compact.length >= 5) {
    return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
  }
  if (country === 'CA' && compact.length === 6) return `${compact.slice(0, 3)} ${compact.slice(3)}`;
  if (country === 'NL' && /^\d{4}[A-Z]{2}$/.test(compact))
    return `${compact.slice(0, 4)} ${compact.slice(4)}`;
  if (country === 'US' && /^\d{9}$/.test(compact)) return `${compact.slice(0, 5)}-${compact.slice(5)}`;
  return code.replace(/\s+/g, ' ').trim().toUpperCase();
}

function titleCaseIfUniform(value: string, keepDirections: boolean): string {
  const letters = value.replace(/[^\p{L}]/gu, '');
  if (letters.length < 2) return value;
  const uniform = letters === letters.toLowerCase() || letters === letters.toUpperCase();
  if (!uniform) return value;
  return value
    .split(' ')
    .map((word) => {
      if (keepDirections && DIRECTIONS.has(word.toUpperCase())) return word.toUpperCase();
      if (/^\d/.test(word)) return word.toLowerCase();
      return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
    })
    .join(' ');
}

function expandAbbreviations(line: string): { text: string; expansions: [string, string][] } {
  const words = line.split(' ');
  const expansions: [string, string][] = [];
  const first = words[0];
  const unit = first ? UNIT_TYPES[first.replace(/\.$/, '').toLowerCase()] : undefined;
  if (first && unit && words.length > 1) {
    expansions.push([first, unit]);
    words[0] = unit;
  }
  let last = words.length - 1;
  if (last > 1 && DIRECTIONS.has(words[last]!.toUpperCase())) last -= 1;
  const candidate = words[last];
  const street = candidate ? STREET_TYPES[candidate.replace(/\.$/, '').toLowerCase()] : undefined;
  if (candidate && street && last >= 1) {
    expansions.push([candidate, street]);
    words[last] = street;
  }
  return { text: words.join(' '), expansions };
}
