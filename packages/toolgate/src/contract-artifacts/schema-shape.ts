/**
 * Reading JSON Schema 2020-12 as zod emits it: a nullable field is either `type: [t, "null"]` or
 * `anyOf: [{...}, {type: "null"}]` with the description on the outer node. These functions give the
 * diff and the lint one view of both spellings.
 */
export type SchemaNode = Record<string, unknown>;

export function isNode(value: unknown): value is SchemaNode {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function pointerSegment(segment: string | number): string {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Follows local `$ref`s (`#/$defs/...`) against the document root; unknown refs resolve to `{}`. */
export function resolveRef(node: SchemaNode, root: SchemaNode): SchemaNode {
  let current = node;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 32; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) return {};
    let target: unknown = root;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
      target = isNode(target) ? target[key] : undefined;
    }
    if (!isNode(target)) return {};
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

/** The alternatives a node stands for: its anyOf/oneOf branches, or itself. */
export function branchesOf(node: SchemaNode): SchemaNode[] {
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) return alternatives.filter(isNode);
  return [node];
}

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The JSON types a node admits; null means unconstrained (any type). */
export function typesOf(node: SchemaNode): Set<string> | null {
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) {
    const union = new Set<string>();
    for (const branch of alternatives.filter(isNode)) {
      const types = typesOf(branch);
      if (types === null) return null;
      for (const t of types) union.add(t);
    }
    return union;
  }
  if (typeof node.type === 'string') return new Set([node.type]);
  if (Array.isArray(node.type)) return new Set(node.type.map(String));
  if ('const' in node) return new Set([typeOfValue(node.const)]);
  if (Array.isArray(node.enum)) return new Set(node.enum.map(typeOfValue));
  return null;
}

/** Whether a type set admits a value of type `type` (integers are numbers). */
export function admitsType(types: Set<string> | null, type: string): boolean {
  if (types === null) return true;
  return types.has(type) || (type === 'integer' && types.has('number'));
}

/** The branch that describes values of `type` (with a `type` array the node itself), or null. */
export function branchForType(
  node: SchemaNode,
  type: string,
): { node: SchemaNode; index: number | null } | null {
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) {
    const index = alternatives.findIndex((b) => isNode(b) && admitsType(typesOf(b), type));
    return index < 0 ? null : { node: alternatives[index] as SchemaNode, index };
  }
  return admitsType(typesOf(node), type) ? { node, index: null } : null;
}

/**
 * The non-null values a node is limited to (enum or const, over all branches), or null when some
 * non-null branch is open. Nullability is a type question and is left to `typesOf`.
 */
export function enumValuesOf(node: SchemaNode): unknown[] | null {
  const values: unknown[] = [];
  for (const branch of branchesOf(node)) {
    if (branch.type === 'null') continue;
    if ('const' in branch) values.push(branch.const);
    else if (Array.isArray(branch.enum)) values.push(...branch.enum.filter((v) => v !== null));
    else return null;
  }
  return values.length > 0 ? values : null;
}

/** A node's description, taken from the outer node or, for nullable fields, its non-null branch. */
export function descriptionOf(node: SchemaNode): string | null {
  if (typeof node.description === 'string') return node.description;
  const described = branchesOf(node).filter((b) => b.type !== 'null' && b !== node);
  const texts = described.map((b) => (typeof b.description === 'string' ? b.description : null));
  return texts.length > 0 && texts.every((t) => t !== null) ? texts.join(' / ') : null;
}

/** Short human label of a node's type, for reports and the catalog ("string | null", "array of object"). */
export function typeLabel(node: SchemaNode): string {
  const types = typesOf(node);
  if (types === null) return 'any';
  return [...types]
    .sort((a, b) => (a === 'null' ? 1 : b === 'null' ? -1 : a < b ? -1 : 1))
    .map((type) => {
      if (type !== 'array') return type;
      const branch = branchForType(node, 'array')?.node;
      const items = branch && isNode(branch.items) ? typeLabel(branch.items) : 'any';
      return `array of ${items}`;
    })
    .join(' | ');
}
