import { hash } from 'node:crypto';

/**
 * RFC 8785 (JCS) canonical JSON: object members sorted by UTF-16 code units, no whitespace,
 * numbers in the ECMAScript shortest form (so `1.0` and `1` are the same), strings escaped as
 * JSON.stringify does. Undefined members are dropped, like JSON.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON cannot represent a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot represent a ${typeof value}`);
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
