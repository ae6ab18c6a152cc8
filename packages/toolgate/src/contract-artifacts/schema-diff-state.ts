import { type ChangeClass, type ContractChange, type SchemaSide, severityOf } from './change-classes.ts';
import { pointerSegment, type SchemaNode } from './schema-shape.ts';

/** One comparison of a tool's input or output schema, old against new, and what it found so far. */
export interface Walk {
  readonly tool: string;
  readonly side: SchemaSide;
  readonly oldRoot: SchemaNode;
  readonly newRoot: SchemaNode;
  readonly changes: ContractChange[];
  /** `$ref` pairs being compared on the current path, so recursion stops at the first repeat. */
  readonly refsOnPath: Set<string>;
}

export interface Place {
  readonly pointer: string;
  /** Dotted field path for people: `address.line1`, `items[].sku`, `result.status`. */
  readonly field: string;
}

/** Records one classified change at a place, judged by the side of the schema it sits on. */
export function emit(walk: Walk, change: ChangeClass, place: Place, detail: string): void {
  const label = place.field === '' ? walk.side : `${walk.side} ${place.field}`;
  walk.changes.push({
    tool: walk.tool,
    change,
    severity: severityOf(change, walk.side),
    pointer: place.pointer,
    message: `${label}: ${detail}`,
  });
}

export const show = (value: unknown): string => (value === undefined ? 'none' : JSON.stringify(value));
export const child = (place: Place, segment: string, field: string): Place => ({
  pointer: `${place.pointer}/${pointerSegment(segment)}`,
  field:
    place.field === '' ? field : field.startsWith('[') ? `${place.field}${field}` : `${place.field}.${field}`,
});
