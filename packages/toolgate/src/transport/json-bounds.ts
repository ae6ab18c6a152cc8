/** Object keys one request body may hold in all, counted across every message of a batch. */
export const DEFAULT_JSON_KEY_LIMIT = 10_000;
/** How deeply objects and arrays may nest in one request body (the JSON-RPC envelope takes three). */
export const DEFAULT_JSON_DEPTH_LIMIT = 64;

/** The bounds a request body is held to before it is parsed. */
export interface JsonBounds {
  readonly maxKeys: number;
  readonly maxDepth: number;
}

export const DEFAULT_JSON_BOUNDS: JsonBounds = {
  maxKeys: DEFAULT_JSON_KEY_LIMIT,
  maxDepth: DEFAULT_JSON_DEPTH_LIMIT,
};

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/**
 * Why a JSON text is over its bounds, or null. One pass over the characters, no object built: outside
 * strings every `:` ends an object key and every `{`/`[` opens a level, so a body of a hundred thousand
 * keys is refused for a fraction of what parsing it would cost (parsing builds every key as a property of
 * a dictionary object). Text that is not JSON is left to the parser to refuse.
 */
export function jsonOverBounds(text: string, bounds: JsonBounds): string | null {
  let keys = 0;
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: a quote inside it is escaped.
      for (i++; i < length; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === COLON) {
      if (++keys > bounds.maxKeys) return `more than ${bounds.maxKeys} object keys`;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > bounds.maxDepth) return `objects and arrays nested deeper than ${bounds.maxDepth} levels`;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return null;
}
