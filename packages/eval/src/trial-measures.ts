import type { Effect } from '@toolgate/simulation';
import { canonicalJson } from 'toolgate';
import { learnedBetween } from './rules/no-repeat-refusal.ts';
import { type CallFact, isRefusal, isUncertain, type TrialFacts } from './rules/trial-facts.ts';

/** Refusals only a caller's mistake provokes: malformed or invented arguments, a reused key, a duplicate. */
const MISTAKE_CODES = new Set(['INVALID_ARGUMENT', 'IDEMPOTENCY_CONFLICT', 'POSSIBLE_DUPLICATE']);

/**
 * Calls where the backend stopped the agent's mistake: a call a rule or `must_not_call` flagged, or
 * one refused with a code only a mistake provokes, that the backend refused (so nothing happened). A
 * key conflict is the agent's mistake only when the agent itself used the key before for another
 * request; a conflict with a key someone else holds is the world's doing, and the agent's choosing a
 * new key is the fix, not a mistake.
 */
export function backendInterventions(facts: TrialFacts, mistakes: ReadonlySet<number>): number {
  return facts.calls.filter((fact) => {
    if (!isRefusal(fact)) return false;
    if (mistakes.has(fact.record.index)) return true;
    const code = fact.envelope?.code ?? '';
    if (code === 'IDEMPOTENCY_CONFLICT') return reusedOwnKey(facts, fact);
    return MISTAKE_CODES.has(code);
  }).length;
}

/** The agent sent this key before in the trial, for another request. */
function reusedOwnKey(facts: TrialFacts, fact: CallFact): boolean {
  return facts.calls.some(
    (before) => before.position < fact.position && before.key === fact.key && before.request !== fact.request,
  );
}

/**
 * Calls that could not tell the agent anything new: a write repeating a request (key aside) whose
 * earlier answer was already final with nothing learned since, or a read repeating an identical read
 * with the same answer and no write in between. Polls while an outcome is open (a write answered
 * outcome_unknown or in_progress and not yet settled), a same-key retry after a lost answer, and a
 * write sent again once a read brought news (the second redirect after the parcel's handoff) do not
 * count.
 */
export function duplicateCalls(facts: TrialFacts): number {
  return facts.calls.filter((fact, i) => {
    const earlier = facts.calls.slice(0, i).filter((e) => e.request === fact.request);
    if (fact.write) {
      const final = earlier.filter(settled).at(-1);
      return final !== undefined && !learnedBetween(facts, final, fact);
    }
    const previous = earlier.at(-1);
    if (!previous || outcomeOpen(facts.calls.slice(0, i))) return false;
    const writeBetween = facts.calls.slice(facts.calls.indexOf(previous) + 1, i).some((c) => c.write);
    return !writeBetween && answerOf(previous) === answerOf(fact);
  }).length;
}

/** Some write's latest answer left its outcome open: reads now are polls. */
function outcomeOpen(calls: readonly CallFact[]): boolean {
  const latest = new Map<string, CallFact>();
  for (const call of calls) if (call.write) latest.set(call.request, call);
  return [...latest.values()].some((call) => isUncertain(call.status));
}

const PLAIN = new Set(['completed', 'validated', 'submitted']);

/** An answer that is not plain success: something to recover from. */
function troubled(fact: CallFact): boolean {
  return fact.status === null || !PLAIN.has(fact.status);
}

/**
 * The agent met something to recover from: an answer that is not plain success, or a fault or a
 * moving world while it worked. An agent that called nothing met nothing, whatever was injected.
 */
export function neededRecovery(facts: TrialFacts, faultInjected: boolean): boolean {
  return facts.calls.length > 0 && (faultInjected || facts.calls.some(troubled));
}

/** Calls the agent made after the first answer that was not plain success: what recovering cost. */
export function recoveryCalls(facts: TrialFacts): number {
  const first = facts.calls.findIndex(troubled);
  return first < 0 ? 0 : facts.calls.length - first - 1;
}

/** The same effect (system, action, ref, data) applied more than once. */
export function duplicateEffects(effects: readonly Effect[]): number {
  const seen = new Map<string, number>();
  for (const e of effects) {
    const key = canonicalJson([e.system, e.action, e.ref, e.data]);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
}

function settled(fact: CallFact): boolean {
  if (fact.status === null || isUncertain(fact.status)) return false;
  return fact.envelope?.retryable !== true;
}

function answerOf(fact: CallFact): string {
  return canonicalJson([fact.status, fact.envelope?.code ?? null, fact.envelope?.result ?? null]);
}
