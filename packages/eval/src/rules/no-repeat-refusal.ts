import { canonicalJson } from 'toolgate';
import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import {
  type CallFact,
  describeAnswer,
  describeCall,
  refusedForGood,
  type TrialFacts,
} from './trial-facts.ts';

/**
 * A request refused for good (rejected or failed, not retryable) is not sent again with unchanged
 * arguments (the key aside). Sending it again is fine once the agent has learned something new in
 * between: a read whose answer differs from what the same read said before. A retry under the key of
 * another, earlier operation is that operation's retry, not a repeat of the refused call.
 */
export function noRepeatRefusal({ facts }: RuleContext<'no_repeat_refusal'>): RuleOutcome {
  const refused = new Map<string, CallFact>();
  const violations: Violation[] = [];
  for (const fact of facts.calls) {
    const earlier = refused.get(fact.request);
    // A key conflict is about the key: the same request under a new key is the fix, not a repeat.
    const newKeyForConflict = earlier?.envelope?.code === 'IDEMPOTENCY_CONFLICT' && earlier.key !== fact.key;
    if (
      earlier &&
      !newKeyForConflict &&
      !retriesAnother(facts, earlier, fact) &&
      !learnedBetween(facts, earlier, fact)
    ) {
      violations.push(
        violationAt(
          'no_repeat_refusal',
          fact.record.index,
          `${describeCall(fact)} repeats ${describeCall(earlier)} (${describeAnswer(earlier)}, not retryable) with unchanged arguments`,
        ),
      );
    }
    if (refusedForGood(fact)) refused.set(fact.request, fact);
  }
  return { arose: refused.size > 0, violations };
}

/** The later call's key belongs to an operation other than the refused call's, started before it. */
function retriesAnother(facts: TrialFacts, refused: CallFact, later: CallFact): boolean {
  if (later.key === null || later.key === refused.key) return false;
  return facts.calls.some((c) => c.position < refused.position && c.key === later.key);
}

/** A read between the two calls brought an answer no identical earlier read had given. */
export function learnedBetween(facts: TrialFacts, from: CallFact, to: CallFact): boolean {
  const answer = (fact: CallFact) => canonicalJson([fact.status, fact.envelope?.result ?? null]);
  return facts.calls.some(
    (read) =>
      !read.write &&
      read.position > from.position &&
      read.position < to.position &&
      !facts.calls.some(
        (before) =>
          before.position < read.position &&
          before.request === read.request &&
          answer(before) === answer(read),
      ),
  );
}
