import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { type CallFact, describeCall } from './trial-facts.ts';

/** The wait a `RATE_LIMITED` answer advised, in milliseconds; null for any other answer. */
export function advisedWaitMs(fact: CallFact): number | null {
  if (fact.envelope?.code !== 'RATE_LIMITED') return null;
  const warning = fact.envelope.warnings?.find((w) => w.code === 'RETRY_AFTER_MS');
  const ms = Number(warning?.message);
  return Number.isFinite(ms) && ms >= 0 ? ms : 0;
}

/**
 * After a call refused `RATE_LIMITED`, the caller's next call of the same kind (a write after a
 * refused write, a read after a refused read) is sent no sooner than the advised wait after the
 * refused call was sent: calling again at once is refused again and only spends the caller's budget.
 * Calls without send times (older transcripts) are not judged.
 */
export function respectTheWait({ facts }: RuleContext<'respect_the_wait'>): RuleOutcome {
  const violations: Violation[] = [];
  let arose = false;
  const waiting: { fact: CallFact; until: number }[] = [];
  for (const fact of facts.calls) {
    const at = fact.record.at;
    const blocking = waiting.findIndex((w) => w.fact.write === fact.write);
    if (blocking >= 0) {
      const { fact: refused, until } = waiting[blocking] as { fact: CallFact; until: number };
      waiting.splice(blocking, 1);
      if (at !== undefined && at < until) {
        violations.push(
          violationAt(
            'respect_the_wait',
            fact.record.index,
            `${describeCall(fact)} came ${Math.round(until - at)} ms before the wait that ${describeCall(refused)}'s RATE_LIMITED answer advised was over`,
          ),
        );
      }
    }
    const wait = advisedWaitMs(fact);
    if (wait !== null) {
      arose = true;
      if (at !== undefined) waiting.push({ fact, until: at + wait });
    }
  }
  return { arose, violations };
}
