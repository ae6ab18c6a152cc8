import { canonicalJson } from '../contract/canonical-json.ts';
import { emit, type Place, show, type Walk } from './schema-diff-state.ts';
import { admitsType, enumValuesOf, type SchemaNode, typeLabel, typesOf } from './schema-shape.ts';

const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;

/** Types lost and gained: narrowed, widened or changed. */
export function diffTypes(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  const lost = oldTypes === null ? newTypes !== null : [...oldTypes].some((t) => !admitsType(newTypes, t));
  const gained = newTypes === null ? oldTypes !== null : [...newTypes].some((t) => !admitsType(oldTypes, t));
  if (!lost && !gained) return;
  const change = lost && gained ? 'type_changed' : lost ? 'type_narrowed' : 'type_widened';
  emit(walk, change, place, `type ${typeLabel(before)} -> ${typeLabel(after)}`);
}

/** Values removed from or added to an enum, or an enum introduced or dropped. */
export function diffEnums(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
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

/** Lengths, ranges, item counts, multipleOf, pattern and format: tightened, loosened or changed. */
export function diffBounds(walk: Walk, before: SchemaNode, after: SchemaNode, place: Place): void {
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
