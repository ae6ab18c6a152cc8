/**
 * The simulated validator's reference data. Every material correction and every undeliverable verdict
 * is keyed on these entries, so tests and evaluation scenarios can trigger each case on purpose
 * (docs/test-api.md lists them). Addresses that match no entry are accepted after cosmetic fixes.
 */
export interface DirectoryStreet {
  readonly country: string;
  readonly locality: string;
  readonly postalCode: string;
  readonly street: string;
}

export const DIRECTORY: readonly DirectoryStreet[] = [
  {
    country: 'US',
    locality: 'Springfield',
    postalCode: '62704',
    street: 'Evergreen Terrace',
  },
  {
    country: 'US',
    locality: 'Portland',
    postalCode: '97205',
    street: 'Harbor View Road',
  },
  { country: 'GB', locality: 'London', postalCode: 'SW1A 2AA', street: 'Downing Street' },
  { country: 'DE', locality: 'Berlin', postalCode: '10117', street: 'Unter den Linden' },
  {
    country: 'CA',
    locality: 'Toronto',
    postalCode: 'M5V 2T6',
    street: 'Front Street West',
  },
];

/** A word in the first address line that marks it as undeliverable. */
export const UNDELIVERABLE_MARKER = /\bnowhere\b/i;
/** Postal codes made only of zeros are never delivered to. */
export const UNDELIVERABLE_POSTAL_CODE = /^[0\s-]+$/;

/** Splits "742 Evergreen Terrace" into its house number and street name. */
export function splitStreetLine(line: string): { number: string | null; street: string } {
  const match = /^(\d+[A-Za-z]?(?:-\d+)?)\s+(.+)$/.exec(line);
  return match ? { number: match[1]!, street: match[2]! } : { number: null, street: line };
}

/** Levenshtein distance, case-insensitive; used to recognise a misspelt street of the directory. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= y.length; j += 1) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[y.length]!;
}
