import type { PolicyValue } from './policy-entity.ts';

/**
 * A JSON value as Cedar can read it: nulls and non-integer numbers are left out. Cedar's own escape
 * keys (`__entity`, `__extn`) are left out too unless `entities` is set, so that no caller input can
 * name an entity; a module's resource attributes may (an owning group is an entity reference).
 */
export function cedarValue(value: unknown, entities = false): PolicyValue | undefined {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (Array.isArray(value)) {
    return value.map((item) => cedarValue(item, entities)).filter((v): v is PolicyValue => v !== undefined);
  }
  if (value !== null && typeof value === 'object') {
    const record: Record<string, PolicyValue> = {};
    for (const [key, item] of Object.entries(value)) {
      if (!entities && (key === '__entity' || key === '__extn')) continue;
      const converted = cedarValue(item, entities);
      if (converted !== undefined) record[key] = converted;
    }
    return record;
  }
  return undefined;
}
