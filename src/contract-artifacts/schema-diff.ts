import { canonicalJson } from '../contract/canonical-json.ts';
import { type ChangeClass, type ContractChange, type SchemaSide, severityOf } from './change-classes.ts';
import {
  admitsType,
  branchForType,
  descriptionOf,
  enumValuesOf,
  isNode,
  pointerSegment,
  resolveRef,
  type SchemaNode,
  typeLabel,
  typesOf,
} from './schema-shape.ts';

interface Walk {
  readonly tool: string;
  readonly side: SchemaSide;
  readonly oldRoot: SchemaNode;
  readonly newRoot: SchemaNode;
  readonly changes: ContractChange[];
}

interface Place {
  readonly pointer: string;
  /** Dotted field path for people: `address.line1`, `items[].sku`, `result.status`. */
  readonly field: string;
}

const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
const SHAPED_TYPES = ['string', 'number', 'integer', 'array', 'object'] as const;

function emit(walk: Walk, change: ChangeClass, place: Place, detail: string): void {
  const label = place.field === '' ? walk.side : `${walk.side} ${place.field}`;
  walk.changes.push({
    tool: walk.tool,
    change,
    severity: severityOf(change, walk.side),
    pointer: place.pointer,
    message: `${label}: ${detail}`,
  });
}

const show = (value: unknown): string => (value === undefined ? 'none' : JSON.stringify(value));
const child = (place: Place, segment: string, field: string): Place => ({
  pointer: `${place.pointer}/${pointerSegment(segment)}`,
  field:
    place.field === '' ? field : field.startsWith('[') ? `${place.field}${field}` : `${place.field}.${field}`,
});

function diffTypes(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  const lost = oldTypes === null ? newTypes !== null : [...oldTypes].some((t) => !admitsType(newTypes, t));
  const gained = newTypes === null ? oldTypes !== null : [...newTypes].some((t) => !admitsType(oldTypes, t));
  if (!lost && !gained) return;
  const change = lost && gained ? 'type_changed' : lost ? 'type_narrowed' : 'type_widened';
  emit(walk, change, place, `type ${typeLabel(before)} -> ${typeLabel(after)}`);
}

function diffEnums(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
  const oldValues = enumValuesOf(before);
  const newValues = enumValuesOf(after);
  if (oldValues === null && newValues === null) return;
  if (oldValues === null || newValues === null) {
    const change = oldValues === null ? 'bounds_tightened' : 'bounds_loosened';
    const detail =
      oldValues === null ? `now limited to ${show(newValues)}` : `no longer limited to ${show(oldValues)}`;
    emit(walk, change, place, detail);
    return;
  }
  const oldKeys = new Set(oldValues.map(canonicalJson));
  const newKeys = new Set(newValues.map(canonicalJson));
  const removed = oldValues.filter((v) => !newKeys.has(canonicalJson(v)));
  const added = newValues.filter((v) => !oldKeys.has(canonicalJson(v)));
  if (removed.length > 0) emit(walk, 'enum_value_removed', place, `values removed: ${show(removed)}`);
  if (added.length > 0) emit(walk, 'enum_value_added', place, `values added: ${show(added)}`);
}

function diffBounds(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
  for (const [keywords, tighterWhenLarger] of [
    [LOWER_BOUNDS, true],
    [UPPER_BOUNDS, false],
  ] as const) {
    for (const keyword of keywords) {
      const was = before[keyword];
      const now = after[keyword];
      if (was === now) continue;
      const tightened =
        typeof was !== 'number' || (typeof now === 'number' && (tighterWhenLarger ? now > was : now < was));
      emit(
        walk,
        tightened ? 'bounds_tightened' : 'bounds_loosened',
        place,
        `${keyword} ${show(was)} -> ${show(now)}`,
      );
    }
  }
  if (before.multipleOf !== after.multipleOf) {
    const was = before.multipleOf;
    const now = after.multipleOf;
    const loosened =
      now === undefined || (typeof was === 'number' && typeof now === 'number' && was % now === 0);
    emit(
      walk,
      loosened ? 'bounds_loosened' : 'bounds_tightened',
      place,
      `multipleOf ${show(was)} -> ${show(now)}`,
    );
  }
  for (const keyword of ['pattern', 'format'] as const) {
    const was = before[keyword];
    const now = after[keyword];
    if (was === now) continue;
    const change =
      was === undefined ? 'bounds_tightened' : now === undefined ? 'bounds_loosened' : 'pattern_changed';
    emit(walk, change, place, `${keyword} ${show(was)} -> ${show(now)}`);
  }
}

function diffObject(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
  const oldProps = isNode(before.properties) ? before.properties : {};
  const newProps = isNode(after.properties) ? after.properties : {};
  const oldRequired = new Set(Array.isArray(before.required) ? before.required.map(String) : []);
  const newRequired = new Set(Array.isArray(after.required) ? after.required.map(String) : []);
  const input = walk.side === 'input';
  for (const name of new Set([...Object.keys(oldProps), ...Object.keys(newProps)])) {
    const at = child({ pointer: `${place.pointer}/properties`, field: place.field }, name, name);
    const was = oldProps[name];
    const now = newProps[name];
    if (!isNode(now)) {
      emit(walk, input ? 'input_field_removed' : 'output_field_removed', at, 'field removed');
      continue;
    }
    if (!isNode(was)) {
      const required = newRequired.has(name);
      const change = !input
        ? 'output_field_added'
        : required
          ? 'input_field_added_required'
          : 'input_field_added_optional';
      emit(walk, change, at, required ? 'new required field' : 'new optional field');
      continue;
    }
    if (oldRequired.has(name) && !newRequired.has(name)) {
      emit(walk, input ? 'input_made_optional' : 'output_made_optional', at, 'no longer required');
    } else if (!oldRequired.has(name) && newRequired.has(name)) {
      emit(walk, input ? 'input_made_required' : 'output_made_required', at, 'now required');
    }
    diffSchemaNode(walk, was, now, at);
  }
  const wasClosed = before.additionalProperties === false;
  const isClosed = after.additionalProperties === false;
  if (wasClosed !== isClosed) {
    emit(
      walk,
      isClosed ? 'object_closed' : 'object_opened',
      place,
      isClosed ? 'unknown fields now rejected' : 'unknown fields now accepted',
    );
  } else if (isNode(before.additionalProperties) && isNode(after.additionalProperties)) {
    const at = child(place, 'additionalProperties', '*');
    diffSchemaNode(walk, before.additionalProperties, after.additionalProperties, at);
  }
}

/** Compares one schema position on both sides and records every classified change below it. */
export function diffSchemaNode(walk: Walk, rawBefore: SchemaNode, rawAfter: SchemaNode, place: Place): void {
  const before = resolveRef(rawBefore, walk.oldRoot);
  const after = resolveRef(rawAfter, walk.newRoot);
  const oldText = descriptionOf(before);
  const newText = descriptionOf(after);
  if (oldText !== newText)
    emit(walk, 'field_description_changed', place, `description ${show(oldText)} -> ${show(newText)}`);
  if (canonicalJson(before.default ?? null) !== canonicalJson(after.default ?? null)) {
    emit(walk, 'default_changed', place, `default ${show(before.default)} -> ${show(after.default)}`);
  }
  diffTypes(walk, before, after, place);
  diffEnums(walk, before, after, place);
  for (const type of SHAPED_TYPES) {
    if (type === 'integer' && admitsType(typesOf(before), 'number')) continue;
    const was = branchForType(before, type);
    const now = branchForType(after, type);
    if (!was || !now || !admitsType(typesOf(before), type)) continue;
    const at = now.index === null ? place : { ...place, pointer: `${place.pointer}/anyOf/${now.index}` };
    const oldBranch = resolveRef(was.node, walk.oldRoot);
    const newBranch = resolveRef(now.node, walk.newRoot);
    diffBounds(walk, oldBranch, newBranch, at);
    if (type === 'object') diffObject(walk, oldBranch, newBranch, at);
    if (type === 'array' && isNode(oldBranch.items) && isNode(newBranch.items)) {
      diffSchemaNode(walk, oldBranch.items, newBranch.items, child(at, 'items', '[]'));
    }
  }
}

/** All classified changes between two versions of one tool's input or output schema. */
export function diffSchemas(
  tool: string,
  side: SchemaSide,
  before: SchemaNode,
  after: SchemaNode,
): ContractChange[] {
  const walk: Walk = { tool, side, oldRoot: before, newRoot: after, changes: [] };
  diffSchemaNode(walk, before, after, {
    pointer: side === 'input' ? '/input_schema' : '/output_schema',
    field: '',
  });
  // A node admitting several shaped types (or any type) is compared once per type; report each change once.
  const seen = new Set<string>();
  return walk.changes.filter((c) => {
    const key = `${c.change}\u0000${c.pointer}\u0000${c.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
