import { createRequire } from 'node:module';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = boolean | { readonly [keyword: string]: unknown };
type FormatCheck =
  | RegExp
  | ((value: string) => boolean)
  | { validate: RegExp | ((value: string) => boolean) };

/**
 * Keywords that only annotate: they never make a value invalid, nor a schema fail to compile, for ajv
 * as for the specification. (`$schema` and `$id` are not among them: ajv acts on both.)
 */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'readOnly',
  'writeOnly',
  'deprecated',
]);

const patterns = new Map<string, RegExp | null>();
let formats: Record<string, FormatCheck | undefined> | undefined;

/**
 * The format checks the MCP SDK's ajv uses (ajv-formats' full formats), resolved from the SDK itself so
 * that they are the very functions its validator runs; loading them does not load ajv.
 */
function sdkFormats(): Record<string, FormatCheck | undefined> {
  if (formats === undefined) {
    try {
      const fromSdk = createRequire(
        createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/validation/ajv'),
      );
      formats = (fromSdk('ajv-formats/dist/formats') as { fullFormats: Record<string, FormatCheck> })
        .fullFormats;
    } catch {
      // Laid out otherwise than expected: no format is decided here, ajv judges them all.
      formats = {};
    }
  }
  return formats;
}

/**
 * A format ajv applies to strings. Those ajv-formats defines for numbers (int32, double, ...) are left to
 * ajv: this check applies formats to strings only.
 */
function stringFormat(format: FormatCheck | undefined): boolean {
  if (format === undefined) return false;
  if (format instanceof RegExp || typeof format === 'function') return true;
  const { type } = format as { type?: unknown };
  return type === undefined || type === 'string';
}

/** The pattern as ajv compiles it (Unicode mode), or null when it does not compile. */
function patternOf(source: string): RegExp | null {
  let pattern = patterns.get(source);
  if (pattern === undefined) {
    try {
      pattern = new RegExp(source, 'u');
    } catch {
      pattern = null;
    }
    patterns.set(source, pattern);
  }
  return pattern;
}

/** Length in code points, as ajv counts it (a surrogate pair is one character). */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
}

const TYPES = new Set(['string', 'boolean', 'null', 'number', 'integer', 'object', 'array']);
const isCount = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0;
const isSchema = (s: unknown): s is Schema =>
  typeof s === 'boolean' || (typeof s === 'object' && s !== null && !Array.isArray(s));

/**
 * Whether every part of the schema, reached by an example or not, is one this check decides exactly
 * as ajv does: only the keywords it knows, each well formed (a type ajv knows, a pattern that compiles
 * in Unicode mode, a format ajv-formats has, counts and bounds that are numbers). Such a schema also
 * compiles in ajv, so trusting this check does not hide a schema ajv would refuse to compile.
 */
export function decidable(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (!isSchema(schema)) return false;
  const s = schema as Record<string, unknown>;
  for (const [keyword, value] of Object.entries(s)) {
    if (ANNOTATIONS.has(keyword)) continue;
    switch (keyword) {
      case 'type':
        if (!(Array.isArray(value) ? value : [value]).every((t) => TYPES.has(t as string))) return false;
        break;
      case 'properties':
        if (!isSchema(value) || typeof value === 'boolean') return false;
        if (!Object.values(value).every(decidable)) return false;
        break;
      case 'required':
        if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) return false;
        break;
      case 'additionalProperties':
      case 'items':
        if (!decidable(value)) return false;
        break;
      case 'anyOf':
        if (!Array.isArray(value) || value.length === 0 || !value.every(decidable)) return false;
        break;
      case 'enum':
        if (!Array.isArray(value) || value.some((v) => typeof v === 'object' && v !== null)) return false;
        break;
      case 'const':
        if (typeof value === 'object' && value !== null) return false;
        break;
      case 'pattern':
        if (typeof value !== 'string' || patternOf(value) === null) return false;
        break;
      case 'format':
        if (typeof value !== 'string' || !stringFormat(sdkFormats()[value])) return false;
        break;
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
        if (!isCount(value)) return false;
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof value !== 'number' || !Number.isFinite(value)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** A value JSON can hold at this level: no undefined, function, symbol, bigint or non-finite number. */
function isJson(value: unknown): value is Json {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      return value === null || Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;
    default:
      return false;
  }
}

function hasType(value: Json, type: unknown): boolean | null {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      return null;
  }
}

/**
 * Whether `value` is certainly valid against a `decidable` schema as the MCP SDK's validator (ajv with
 * ajv-formats) judges it: `true` when it is, `null` when this check does not say so (the value is
 * invalid, or it is a value JSON cannot hold). Only `true` is relied on; everything else goes to ajv,
 * which also words the error. This spares `lint` loading ajv and compiling a validator per tool for
 * examples that are valid, which they nearly always are.
 */
export function certainlyValid(schema: unknown, value: unknown): true | null {
  if (schema === true) return true;
  if (!isSchema(schema) || typeof schema === 'boolean') return null;
  if (!isJson(value)) return null;
  const s = schema as Record<string, unknown>;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    let matched = false;
    for (const type of types) {
      const has = hasType(value, type);
      if (has === null) return null;
      matched ||= has;
    }
    if (!matched) return null;
  }
  if (s.enum !== undefined || s.const !== undefined) {
    const allowed = s.enum !== undefined ? s.enum : [s.const];
    if (!Array.isArray(allowed)) return null;
    // Deep equality of objects and arrays is left to ajv.
    if (allowed.some((a) => typeof a === 'object' && a !== null)) return null;
    if (!allowed.includes(value)) return null;
  }
  if (typeof value === 'string' && !stringValid(s, value)) return null;
  if (typeof value === 'number' && !numberValid(s, value)) return null;
  if (Array.isArray(value) && !arrayValid(s, value)) return null;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !objectValid(s, value))
    return null;
  if (s.anyOf !== undefined) {
    if (!Array.isArray(s.anyOf)) return null;
    if (!s.anyOf.some((branch) => certainlyValid(branch as Schema, value) === true)) return null;
  }
  return true;
}

function stringValid(s: Record<string, unknown>, value: string): boolean {
  if (s.minLength !== undefined || s.maxLength !== undefined) {
    const length = codePoints(value);
    if (s.minLength !== undefined && !(typeof s.minLength === 'number' && length >= s.minLength))
      return false;
    if (s.maxLength !== undefined && !(typeof s.maxLength === 'number' && length <= s.maxLength))
      return false;
  }
  if (s.pattern !== undefined) {
    const pattern = typeof s.pattern === 'string' ? patternOf(s.pattern) : null;
    if (pattern === null || !pattern.test(value)) return false;
  }
  if (s.format !== undefined) {
    const format = typeof s.format === 'string' ? sdkFormats()[s.format] : undefined;
    if (format === undefined) return false;
    const check = format instanceof RegExp || typeof format === 'function' ? format : format.validate;
    if (!(check instanceof RegExp ? check.test(value) : check(value))) return false;
  }
  return true;
}

function numberValid(s: Record<string, unknown>, value: number): boolean {
  const bound = (keyword: string, holds: (limit: number) => boolean) =>
    s[keyword] === undefined || (typeof s[keyword] === 'number' && holds(s[keyword]));
  return (
    bound('minimum', (limit) => value >= limit) &&
    bound('maximum', (limit) => value <= limit) &&
    bound('exclusiveMinimum', (limit) => value > limit) &&
    bound('exclusiveMaximum', (limit) => value < limit)
  );
}

function arrayValid(s: Record<string, unknown>, value: Json[]): boolean {
  if (s.minItems !== undefined && !(typeof s.minItems === 'number' && value.length >= s.minItems))
    return false;
  if (s.maxItems !== undefined && !(typeof s.maxItems === 'number' && value.length <= s.maxItems))
    return false;
  if (s.items !== undefined) {
    // The array form of `items` (a tuple) is left to ajv.
    if (Array.isArray(s.items)) return false;
    return value.every((item) => certainlyValid(s.items as Schema, item) === true);
  }
  return true;
}

function objectValid(s: Record<string, unknown>, value: { [key: string]: Json }): boolean {
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  if (typeof properties !== 'object' || properties === null) return false;
  if (s.required !== undefined) {
    if (!Array.isArray(s.required)) return false;
    for (const name of s.required) if (value[name as string] === undefined) return false;
  }
  for (const [name, item] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (declared !== undefined) {
      if (certainlyValid(declared, item) !== true) return false;
    } else if (s.additionalProperties !== undefined) {
      if (certainlyValid(s.additionalProperties as Schema, item) !== true) return false;
    }
  }
  return true;
}
