import type { JsonSchema } from './json-schema.ts';

/** The most bytes one MCP reply may hold; a reply past it is replaced with an error. */
export const REPLY_LIMIT_BYTES = 4 * 1024 * 1024;
/** Room a tools/list page needs around its tool entries (JSON-RPC envelope, cursor, cache hints). */
const LISTING_ENVELOPE_BYTES = 64 * 1024;

/**
 * What a tool contract may weigh, checked when the tool is registered so that a contract the gateway
 * could not parse against or list is refused at load, naming the tool, instead of failing every call.
 */
export const CONTRACT_BOUNDS = Object.freeze({
  /** Properties one object of an input or output schema may declare. */
  propertiesPerObject: 1_000,
  /** Nesting of a schema's JSON document (each nested object field adds two levels: schema, properties). */
  schemaDepth: 64,
  /** Bytes of one input or output schema as JSON. */
  schemaBytes: 1024 * 1024,
  /** Bytes of the whole tools/list listing (and so of any one tool's entry): every page fits a reply. */
  listingBytes: REPLY_LIMIT_BYTES - LISTING_ENVELOPE_BYTES,
});

/**
 * Why a JSON schema exceeds the bounds, or null when it keeps within them. Walks at most
 * `schemaDepth` levels, so that the check itself never recurses without bound.
 */
export function schemaBoundsProblem(schema: JsonSchema, which: 'input' | 'output'): string | null {
  const shape = nodeProblem(schema, which, '', 1);
  if (shape) return shape;
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > CONTRACT_BOUNDS.schemaBytes) {
    return `${which} schema is ${bytes} bytes as JSON; at most ${CONTRACT_BOUNDS.schemaBytes} are allowed`;
  }
  return null;
}

/** The refusal of an object schema declaring `count` properties, when that is past the bound. */
export function propertiesProblem(which: 'input' | 'output', count: number, pointer: string): string | null {
  return count > CONTRACT_BOUNDS.propertiesPerObject ? tooManyProperties(which, count, pointer) : null;
}

function tooManyProperties(which: string, count: number, pointer: string): string {
  return `${which} schema declares ${count} properties in one object at ${pointer}; at most ${CONTRACT_BOUNDS.propertiesPerObject} are allowed`;
}

function nodeProblem(node: unknown, which: string, pointer: string, depth: number): string | null {
  if (node === null || typeof node !== 'object') return null;
  if (depth > CONTRACT_BOUNDS.schemaDepth) {
    return `${which} schema nests deeper than ${CONTRACT_BOUNDS.schemaDepth} levels at ${pointer}`;
  }
  const entries = Array.isArray(node)
    ? node.map((child, i) => [String(i), child] as const)
    : Object.entries(node as Record<string, unknown>);
  const properties = (node as { properties?: unknown }).properties;
  if (!Array.isArray(node) && typeof properties === 'object' && properties !== null) {
    const count = Object.keys(properties).length;
    if (count > CONTRACT_BOUNDS.propertiesPerObject) {
      return tooManyProperties(which, count, pointer || '/');
    }
  }
  for (const [key, child] of entries) {
    const problem = nodeProblem(child, which, `${pointer}/${key}`, depth + 1);
    if (problem) return problem;
  }
  return null;
}
