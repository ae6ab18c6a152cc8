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
  // Built by appending, without intermediate arrays: this runs for every write's fingerprint.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) {
      if (i > 0) out += ',';
      const item: unknown = value[i];
      out += item === undefined ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // The default sort compares UTF-16 code units, as JCS orders members.
    const keys = Object.keys(record).sort();
    let out = '{';
    let first = true;
    for (const key of keys) {
      const item = record[key];
      if (item === undefined) continue;
      if (!first) out += ',';
      first = false;
      out += `${JSON.stringify(key)}:${canonicalJson(item)}`;
    }
    return `${out}}`;
  }
  throw new TypeError(`canonical JSON cannot represent a ${typeof value}`);
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
