import { canonicalJson } from '../contract/canonical-json.ts';
import type { ContractChange, SchemaSide } from './change-classes.ts';
import { diffBounds, diffEnums, diffTypes } from './schema-constraint-diff.ts';
import { child, emit, type Place, show, type Walk } from './schema-diff-state.ts';
import {
  admitsType,
  branchForType,
  descriptionOf,
  isNode,
  resolveRef,
  type SchemaNode,
  typesOf,
} from './schema-shape.ts';

const SHAPED_TYPES = ['string', 'number', 'integer', 'array', 'object'] as const;

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
  // A recursive schema ($ref back to an ancestor) is compared once per pair of references on the path.
  const refPair =
    typeof rawBefore.$ref === 'string' || typeof rawAfter.$ref === 'string'
      ? `${String(rawBefore.$ref)}\u0000${String(rawAfter.$ref)}`
      : null;
  if (refPair !== null) {
    if (walk.refsOnPath.has(refPair)) return;
    walk.refsOnPath.add(refPair);
  }
  try {
    compareResolved(walk, resolveRef(rawBefore, walk.oldRoot), resolveRef(rawAfter, walk.newRoot), place);
  } finally {
    if (refPair !== null) walk.refsOnPath.delete(refPair);
  }
}

function compareResolved(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
  const oldText = descriptionOf(before);
  const newText = descriptionOf(after);
  if (oldText !== newText)
    emit(walk, 'field_description_changed', place, `description ${show(oldText)} -> ${show(newText)}`);
  const oldHeader = before['x-mcp-header'];
  const newHeader = after['x-mcp-header'];
  if (oldHeader !== newHeader)
    emit(walk, 'field_header_changed', place, `x-mcp-header ${show(oldHeader)} -> ${show(newHeader)}`);
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
  const walk: Walk = { tool, side, oldRoot: before, newRoot: after, changes: [], refsOnPath: new Set() };
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
