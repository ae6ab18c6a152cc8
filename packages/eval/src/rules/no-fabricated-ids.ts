import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { describeCall } from './trial-facts.ts';

/** An argument naming something by identifier: `id` or a name ending in `_id`, at any depth. */
const ID_NAME = /(^|_)id$/;

/**
 * Every identifier an agent sends came from somewhere: the user's messages so far, or a tool answer
 * it already read. An order id guessed before asking, or a change id made up instead of searching,
 * breaks it (compared case-insensitively, as text inside what was said or answered, whole or word
 * by word).
 */
export function noFabricatedIds({ facts }: RuleContext<'no_fabricated_ids'>): RuleOutcome {
  const violations: Violation[] = [];
  let arose = false;
  let known = '';
  facts.events.forEach((event) => {
    if (event.kind === 'user') known += `\n${event.text.toLowerCase()}`;
    if (event.kind !== 'call') return;
    const fact = facts.calls.find((c) => c.record === event);
    const ids = identifiers(event.args);
    if (ids.length > 0) arose = true;
    const invented = ids.filter(([, value]) => !given(value, known));
    if (fact && invented.length > 0) {
      violations.push(
        violationAt(
          'no_fabricated_ids',
          event.index,
          `${describeCall(fact)} uses ${invented.map(([path, value]) => `${path} ${JSON.stringify(value)}`).join(', ')}, which neither the user nor any earlier tool answer gave`,
        ),
      );
    }
    known += `\n${JSON.stringify(event.envelope ?? {}).toLowerCase()}`;
  });
  return { arose, violations };
}

/**
 * The identifier was said or answered: as a whole, or every word of it (`lamp_kitchen` for "the
 * kitchen lamp"; `ord_000001` is not given by "my order").
 */
function given(value: string, known: string): boolean {
  const id = value.toLowerCase();
  if (known.includes(id)) return true;
  const words = id.split(/[^a-z0-9]+/).filter((w) => w.length > 0);
  return words.length > 1 && words.every((w) => known.includes(w));
}

function identifiers(value: unknown, path = ''): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => identifiers(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([name, v]) => {
    const at = path ? `${path}.${name}` : name;
    if (ID_NAME.test(name) && typeof v === 'string' && v.length > 0) return [[at, v] as [string, string]];
    return identifiers(v, at);
  });
}
