import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { describeCall } from './trial-facts.ts';

/**
 * A question is answered by reading: where the reference trajectory calls no write tool (the task
 * is a question, not a change), any write the agent sends, a dry run or a draft included, breaks it.
 */
export function noWriteForQuestion({ facts }: RuleContext<'no_write_for_question'>): RuleOutcome {
  if (!facts.informational) return { arose: false, violations: [] };
  const violations: Violation[] = facts.calls
    .filter((c) => c.write)
    .map((c) =>
      violationAt(
        'no_write_for_question',
        c.record.index,
        `${describeCall(c)} writes, but the user asked a question a read answers`,
      ),
    );
  return { arose: true, violations };
}
