import { callMatches, showPattern } from '../call-pattern.ts';
import type { UserFact } from '../scenario-schema.ts';
import { renderTemplates, type TemplateScope } from '../template.ts';
import { mismatches } from '../value-matcher.ts';
import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { type CallFact, describeCall } from './trial-facts.ts';
import { normalizeWords } from './user-answer.ts';

/**
 * The user's words are data: every consequential call carries each fact the user gave (the
 * scenario's `user_facts`), whichever arguments the scenario lists elsewhere. A fact with `arg` must
 * match at that path; without it, some value anywhere in the arguments must match. What a call
 * executes includes the prepared content it names: a commit of a draft carries the draft's
 * arguments (the draft as the person saw it). A dropped detail ("apt 4" left out of an address) or
 * a value other than the one said ("in three days" scheduled for tomorrow, "its next window" another
 * window) breaks it, once per fact and call. A fact with `first` is a step the user asked for: the
 * first consequential call it applies to must come after a call matching it ("validate first"). Facts
 * first given in a reply are judged by `respect_the_answer`.
 */
export function argumentsMatchUser({ facts, scope }: RuleContext<'arguments_match_user'>): RuleOutcome {
  const request = facts.requestAt >= 0 ? facts.events[facts.requestAt] : undefined;
  const said = normalizeWords(request?.kind === 'user' ? request.text : '');
  // Facts first given in a reply are the answer's: respect_the_answer holds the calls to them.
  const own = facts.userFacts.filter((f) => said.includes(normalizeWords(f.says)));
  const violations: Violation[] = [];
  const stepChecked = new Set<UserFact>();
  let arose = false;
  for (const call of facts.calls) {
    if (!call.consequential) continue;
    for (const fact of own) {
      if (fact.tools && !fact.tools.includes(call.record.tool)) continue;
      arose = true;
      if (fact.first && !stepChecked.has(fact)) {
        stepChecked.add(fact);
        const first = fact.first;
        const before = facts.calls.some(
          (c) => c.position < call.position && callMatches(first, c.record, scope),
        );
        if (!before)
          violations.push(
            violationAt(
              'arguments_match_user',
              call.record.index,
              `${describeCall(call)} executes before what the user asked first: ${JSON.stringify(fact.says)} (${fact.meaning}); no call ${showPattern(first, scope)} came before it`,
            ),
          );
      }
      if (fact.first && fact.value === undefined && fact.arg === undefined) continue;
      const missed = factMissed(call, fact, scope, preparedFor(call, facts.calls));
      if (missed === null) continue;
      violations.push(
        violationAt(
          'arguments_match_user',
          call.record.index,
          `${describeCall(call)} does not carry what the user said: ${missed}`,
        ),
      );
    }
  }
  return { arose, violations };
}

/**
 * The preparatory calls (drafts) whose answers named something this call's arguments name: what
 * it executes is what they prepared.
 */
function preparedFor(call: CallFact, calls: readonly CallFact[]): Record<string, unknown>[] {
  const named = new Set(
    leaves(call.record.args).filter((v): v is string => typeof v === 'string' && v.length > 3),
  );
  return calls
    .filter(
      (c) =>
        c.preparatory &&
        !c.dryRun &&
        c.position < call.position &&
        leaves(c.envelope?.result ?? null).some((v) => typeof v === 'string' && named.has(v)),
    )
    .map((c) => c.record.args);
}

/** Null when the call carries the fact; otherwise the fact and what the call sent instead. */
export function factMissed(
  call: CallFact,
  fact: UserFact,
  scope: TemplateScope,
  prepared: readonly Record<string, unknown>[] = [],
): string | null {
  const want = renderTemplates(fact.value ?? { $contains: fact.says }, scope);
  if (carries(call.record.args, fact, want)) return null;
  if (prepared.some((args) => carries(args, fact, want))) return null;
  const where = fact.arg ? ` at ${fact.arg}` : '';
  const got = fact.arg ? `, got ${show(lookup(call.record.args, fact.arg))}` : '';
  return `${JSON.stringify(fact.says)} (${fact.meaning})${where}${got}`;
}

function carries(args: Record<string, unknown>, fact: UserFact, want: unknown): boolean {
  if (fact.arg) return mismatches(want, lookup(args, fact.arg)).length === 0;
  return leaves(args).some((value) => mismatches(want, value).length === 0);
}

/** Every value in the arguments, objects and arrays included, so a matcher may name either. */
function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return [value, ...value.flatMap(leaves)];
  if (value !== null && typeof value === 'object') return [value, ...Object.values(value).flatMap(leaves)];
  return [value];
}

function lookup(args: Record<string, unknown>, path: string): unknown {
  let at: unknown = args;
  for (const part of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
