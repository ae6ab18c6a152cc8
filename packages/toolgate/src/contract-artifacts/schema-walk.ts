import { isNode, pointerSegment, type SchemaNode } from './schema-shape.ts';

/** Where a visited subschema sits. */
export interface SchemaVisit {
  readonly node: SchemaNode;
  readonly pointer: string;
  /** Dotted field path for messages (`address.line1`, `items[].sku`); empty at the root. */
  readonly field: string;
  /** The property name when the node is the value schema of an object property. */
  readonly property: string | null;
  /** True for an anyOf/oneOf/allOf branch: the description and defaults sit on its parent. */
  readonly branch: boolean;
}

const BRANCH_KEYWORDS = ['anyOf', 'oneOf', 'allOf'] as const;

/** Visits every subschema reachable from `root` (properties, items, branches, definitions), parents first. */
export function walkSchema(root: SchemaNode, pointer: string, visit: (at: SchemaVisit) => void): void {
  const step = (node: SchemaNode, at: Omit<SchemaVisit, 'node'>): void => {
    visit({ node, ...at });
    if (isNode(node.properties)) {
      for (const [name, value] of Object.entries(node.properties)) {
        if (!isNode(value)) continue;
        step(value, {
          pointer: `${at.pointer}/properties/${pointerSegment(name)}`,
          field: at.field === '' ? name : `${at.field}.${name}`,
          property: name,
          branch: false,
        });
      }
    }
    if (isNode(node.items)) {
      step(node.items, {
        pointer: `${at.pointer}/items`,
        field: `${at.field}[]`,
        property: null,
        branch: false,
      });
    }
    if (isNode(node.additionalProperties)) {
      const field = at.field === '' ? '*' : `${at.field}.*`;
      step(node.additionalProperties, {
        pointer: `${at.pointer}/additionalProperties`,
        field,
        property: null,
        branch: false,
      });
    }
    for (const keyword of BRANCH_KEYWORDS) {
      const branches = node[keyword];
      if (!Array.isArray(branches)) continue;
      branches.forEach((b, i) => {
        if (isNode(b)) step(b, { ...at, pointer: `${at.pointer}/${keyword}/${i}`, branch: true });
      });
    }
    for (const keyword of ['$defs', 'definitions'] as const) {
      const defs = node[keyword];
      if (!isNode(defs)) continue;
      for (const [name, value] of Object.entries(defs)) {
        if (!isNode(value)) continue;
        step(value, {
          pointer: `${at.pointer}/${keyword}/${pointerSegment(name)}`,
          field: name,
          property: null,
          branch: false,
        });
      }
    }
  };
  step(root, { pointer, field: '', property: null, branch: false });
}
