import type { JsonSchema } from './json-schema.ts';

/**
 * Keywords that constrain a value (as the MCP Inspector's portability check counts them); a subschema
 * with none of them accepts anything, which clients that map schemas to a narrower dialect refuse or
 * misread. `if` constrains only together with `then` or `else`.
 */
const CONSTRAINING_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'items',
  'prefixItems',
  'contains',
  'additionalItems',
  'unevaluatedItems',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'dependentSchemas',
  '$ref',
  '$dynamicRef',
]);

/** Keywords that apply to values of one JSON type only: they go to that type's branch of a union. */
const KEYWORDS_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  string: [
    'minLength',
    'maxLength',
    'pattern',
    'format',
    'contentMediaType',
    'contentEncoding',
    'contentSchema',
  ],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: [
    'items',
    'prefixItems',
    'contains',
    'minContains',
    'maxContains',
    'minItems',
    'maxItems',
    'uniqueItems',
    'unevaluatedItems',
  ],
  object: [
    'properties',
    'patternProperties',
    'additionalProperties',
    'unevaluatedProperties',
    'propertyNames',
    'required',
    'dependentRequired',
    'dependentSchemas',
    'minProperties',
    'maxProperties',
  ],
};
const TYPED_KEYWORDS = new Set(Object.values(KEYWORDS_OF_TYPE).flat());

/** Every JSON value: the typed spelling of a schema that accepts anything (fresh objects each time). */
const anyJsonValue = () =>
  ['null', 'boolean', 'object', 'array', 'number', 'string'].map((type) => ({ type }));

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = ['not', 'if', 'then', 'else', 'contains', 'contentSchema'];
/** Keywords whose value is a subschema that may also be written `true`. */
const SCHEMA_OR_BOOLEAN_KEYWORDS = [
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
];
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

const isSchema = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const constrains = (node: JsonSchema) =>
  Object.keys(node).some((key) => CONSTRAINING_KEYWORDS.has(key)) ||
  ('if' in node && ('then' in node || 'else' in node));

/**
 * The schema in the form MCP clients and model providers read most widely: a type union (zod writes
 * nullable as `type: [t, "null"]`) becomes `anyOf` branches of one type each, a subschema that
 * constrains nothing states that it takes any JSON value, and `propertyNames: {type: "string"}` (every
 * JSON object key is a string) is left out. It accepts exactly the values the input schema accepts.
 */
export function portableSchema(schema: JsonSchema): JsonSchema {
  return typedNode(schema);
}

function portableNode(schema: JsonSchema): JsonSchema {
  const node: JsonSchema = { ...schema };
  for (const key of SCHEMA_KEYWORDS) {
    if (isSchema(node[key])) node[key] = key === 'not' ? portableNode(node[key]) : typedNode(node[key]);
  }
  for (const key of SCHEMA_OR_BOOLEAN_KEYWORDS) {
    // `true` is the schema of any value, and the one spelling of it every reader takes here.
    if (isSchema(node[key])) node[key] = isEmpty(node[key]) ? true : typedNode(node[key]);
  }
  if (isSchema(node.items)) {
    // An array of anything is an array: its items need no schema.
    if (isEmpty(node.items)) delete node.items;
    else node.items = typedNode(node.items);
  } else if (Array.isArray(node.items)) {
    node.items = node.items.map((item) => (isSchema(item) ? typedNode(item) : item));
  }
  for (const key of SCHEMA_LIST_KEYWORDS) {
    const list = node[key];
    if (Array.isArray(list)) node[key] = list.map((item) => (isSchema(item) ? typedNode(item) : item));
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const map = node[key];
    if (!isSchema(map)) continue;
    node[key] = Object.fromEntries(
      Object.entries(map).map(([name, item]) => [name, isSchema(item) ? typedNode(item) : item]),
    );
  }
  if (isSchema(node.propertyNames)) {
    const names = node.propertyNames;
    if (Object.keys(names).length === 1 && names.type === 'string') delete node.propertyNames;
    else node.propertyNames = typedNode(names);
  }
  return Array.isArray(node.type) ? splitTypeUnion(node, node.type) : node;
}

/** A subschema in a position where a value is described: one that constrains nothing says "any JSON value". */
function typedNode(schema: JsonSchema): JsonSchema {
  const node = portableNode(schema);
  return constrains(node) ? node : { ...node, anyOf: anyJsonValue() };
}

/** `{}`: any value, and nothing said about it. */
const isEmpty = (node: JsonSchema) => Object.keys(node).length === 0;

/** `type: [a, b]` as `anyOf: [{type: a, ...a's keywords}, {type: b, ...}]`; the rest stays on the node. */
function splitTypeUnion(node: JsonSchema, types: unknown[]): JsonSchema {
  const { type: _type, ...rest } = node;
  const names = [...new Set(types.map(String))];
  if (names.length === 1) return { ...node, type: names[0] };
  const shared: JsonSchema = {};
  for (const [key, value] of Object.entries(rest)) if (!TYPED_KEYWORDS.has(key)) shared[key] = value;
  const branches = names.map((name) => {
    const branch: JsonSchema = { type: name };
    for (const key of KEYWORDS_OF_TYPE[name] ?? []) if (key in rest) branch[key] = rest[key];
    return branch;
  });
  if (!Array.isArray(shared.anyOf)) return { ...shared, anyOf: branches };
  // Already a union of another kind: both must hold.
  const { anyOf, ...others } = shared;
  return { ...others, allOf: [{ anyOf }, { anyOf: branches }] };
}
