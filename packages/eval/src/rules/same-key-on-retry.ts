import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { type CallFact, describeAnswer, describeCall, isUncertain, requestIdentity } from './trial-facts.ts';

/**
 * After a write answered outcome_unknown, in_progress or a retryable failure, a repeat of the same
 * logical request must reuse its key (or poll operations_get): a new key may make the change twice.
 * The same logical request is the same tool and arguments apart from the key, version arguments
 * (re-read after the first attempt) and the `ignore_args` parameter.
 */
export function sameKeyOnRetry({ facts, params }: RuleContext<'same_key_on_retry'>): RuleOutcome {
  const ignored = new Set(params.ignore_args);
  const omit = (name: string) => name.endsWith('version') || ignored.has(name);
  const pending = new Map<string, CallFact>();
  const violations: Violation[] = [];
  for (const fact of facts.calls) {
    if (!fact.write || fact.dryRun || fact.key === null) continue;
    const logical = requestIdentity(fact.record.tool, fact.record.args, omit);
    const earlier = pending.get(logical);
    if (earlier && earlier.key !== fact.key) {
      violations.push(
        violationAt(
          'same_key_on_retry',
          fact.record.index,
          `${describeCall(fact)} repeats ${describeCall(earlier)} (answered ${describeAnswer(earlier)}) under a new idempotency key; a retry reuses the key or polls operations_get`,
        ),
      );
    } else if (!earlier && mustRetryWithSameKey(fact)) {
      pending.set(logical, fact);
    }
  }
  return { arose: pending.size > 0, violations };
}

function mustRetryWithSameKey(fact: CallFact): boolean {
  if (isUncertain(fact.status)) return true;
  return (fact.status === 'failed' || fact.status === 'rejected') && fact.envelope?.retryable === true;
}
