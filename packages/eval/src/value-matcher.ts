import { canonicalJson } from 'toolgate';
import { lookupPath } from './template.ts';

/**
 * Matchers for arguments, envelopes and rows. A literal matches by equality; an object matches
 * the keys it names (others are ignored); an array matches element by element. Operators:
 * `{$one_of: [...]}`, `{$pattern: "regex"}`, `{$contains: "text"}` (case-insensitive),
 * `{$any: true}` (present, any value), `{$absent: true}` (the optional field was left out),
 * `{$gte: n}`, `{$lte: n}`, `{$not: matcher}`, `{$near_time: {at: iso, within_minutes: n}}` (a
 * timestamp at most n minutes, default 30, from `at`).
 */
export function mismatches(expected: unknown, actual: unknown, path = ''): string[] {
  const at = path || '(value)';
  if (isOperator(expected)) return operatorMismatches(expected, actual, at, path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${show(actual)}`];
    if (actual.length !== expected.length)
      return [`${at}: expected ${expected.length} items, got ${actual.length}`];
    return expected.flatMap((item, i) => mismatches(item, actual[i], `${path}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${show(actual)}`];
    }
    return Object.entries(expected as Record<string, unknown>).flatMap(([key, want]) =>
      mismatches(want, (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key),
    );
  }
  return equal(expected, actual) ? [] : [`${at}: expected ${show(expected)}, got ${show(actual)}`];
}

/** Matches `{ "a.b[0].c": matcher }` against a value, each key a path into it. */
export function pathMismatches(fields: Record<string, unknown>, actual: unknown): string[] {
  return Object.entries(fields).flatMap(([path, want]) => mismatches(want, lookupPath(actual, path), path));
}

export function matches(expected: unknown, actual: unknown): boolean {
  return mismatches(expected, actual).length === 0;
}

const OPERATORS = new Set([
  '$one_of',
  '$pattern',
  '$contains',
  '$any',
  '$absent',
  '$gte',
  '$lte',
  '$not',
  '$near_time',
]);

function isOperator(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && OPERATORS.has(keys[0]!);
}

function operatorMismatches(
  matcher: Record<string, unknown>,
  actual: unknown,
  at: string,
  path: string,
): string[] {
  const [op, arg] = Object.entries(matcher)[0]!;
  const fail = (what: string) => [`${at}: expected ${what}, got ${show(actual)}`];
  switch (op) {
    case '$absent':
      return actual === undefined ? [] : fail('the field to be absent');
    case '$any':
      return actual !== undefined ? [] : [`${at}: expected the field to be present`];
    case '$one_of': {
      const options = Array.isArray(arg) ? arg : [arg];
      return options.some((o) => mismatches(o, actual, path).length === 0)
        ? []
        : fail(`one of ${show(options)}`);
    }
    case '$pattern':
      return typeof actual === 'string' && new RegExp(String(arg)).test(actual)
        ? []
        : fail(`a string matching /${String(arg)}/`);
    case '$contains':
      return typeof actual === 'string' && actual.toLowerCase().includes(String(arg).toLowerCase())
        ? []
        : fail(`text containing ${show(arg)}`);
    case '$gte':
      return typeof actual === 'number' && actual >= Number(arg) ? [] : fail(`a number >= ${show(arg)}`);
    case '$lte':
      return typeof actual === 'number' && actual <= Number(arg) ? [] : fail(`a number <= ${show(arg)}`);
    case '$near_time': {
      const { at, within_minutes: within = 30 } = (arg ?? {}) as { at?: unknown; within_minutes?: unknown };
      const want = Date.parse(String(at));
      const got = typeof actual === 'string' ? Date.parse(actual) : Number.NaN;
      return Number.isFinite(want) && Number.isFinite(got) && Math.abs(got - want) <= Number(within) * 60_000
        ? []
        : fail(`a time within ${show(within)} minutes of ${show(at)}`);
    }
    case '$not':
      return mismatches(arg, actual, path).length > 0 ? [] : fail(`anything but ${show(arg)}`);
    default:
      return [`${at}: unknown matcher ${op}`];
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
