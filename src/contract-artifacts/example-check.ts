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
  // SEP-2243: which header a client mirrors the value into; it constrains the transport, not the value.
  'x-mcp-header',
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

function hasType(value: Json, type: string): boolean {
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
    default:
      return Array.isArray(value);
  }
}

/** A schema `decidable` accepted: only these keywords, each well formed. */
interface DecidedSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items?: boolean | DecidedSchema;
  readonly properties?: Readonly<Record<string, boolean | DecidedSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | DecidedSchema;
  readonly anyOf?: readonly (boolean | DecidedSchema)[];
}

/**
 * Whether `value` is certainly valid against a schema `decidable` accepted, as the MCP SDK's validator
 * (ajv with ajv-formats) judges it: `true` when it is, `null` when this check does not say so (the value
 * is invalid, or it is a value JSON cannot hold). Only `true` is relied on; everything else goes to ajv,
 * which also words the error. This spares `lint` loading ajv and compiling a validator per tool for
 * examples that are valid, which they nearly always are.
 */
export function certainlyValid(schema: unknown, value: unknown): true | null {
  return holds(schema as boolean | DecidedSchema, value) ? true : null;
}

function holds(schema: boolean | DecidedSchema, value: unknown): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isJson(value)) return false;
  const s = schema;
  if (s.type !== undefined) {
    const types = typeof s.type === 'string' ? [s.type] : s.type;
    if (!types.some((type) => hasType(value, type))) return false;
  }
  if (s.enum !== undefined && !s.enum.includes(value)) return false;
  if (s.const !== undefined && s.const !== value) return false;
  if (typeof value === 'string') {
    if (s.minLength !== undefined || s.maxLength !== undefined) {
      const length = codePoints(value);
      if (length < (s.minLength ?? 0) || length > (s.maxLength ?? Number.POSITIVE_INFINITY)) return false;
    }
    if (s.pattern !== undefined && !patternOf(s.pattern)!.test(value)) return false;
    if (s.format !== undefined && !formatHolds(sdkFormats()[s.format]!, value)) return false;
  } else if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) return false;
    if (s.maximum !== undefined && value > s.maximum) return false;
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) return false;
    if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) return false;
  } else if (Array.isArray(value)) {
    if (value.length < (s.minItems ?? 0) || value.length > (s.maxItems ?? Number.POSITIVE_INFINITY))
      return false;
    if (s.items !== undefined && !value.every((item) => holds(s.items!, item))) return false;
  } else if (typeof value === 'object' && value !== null) {
    if (s.required?.some((name) => value[name] === undefined)) return false;
    for (const [name, item] of Object.entries(value)) {
      // A declared property by its own schema, any other by additionalProperties (when given).
      const rule =
        s.properties && Object.hasOwn(s.properties, name) ? s.properties[name] : s.additionalProperties;
      if (rule !== undefined && !holds(rule, item)) return false;
    }
  }
  return s.anyOf === undefined || s.anyOf.some((branch) => holds(branch, value));
}

function formatHolds(format: FormatCheck, value: string): boolean {
  const check = format instanceof RegExp || typeof format === 'function' ? format : format.validate;
  return check instanceof RegExp ? check.test(value) : check(value);
}
