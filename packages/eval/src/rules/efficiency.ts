import type { RuleContext, RuleOutcome } from './rule-check.ts';
import type { CallFact } from './trial-facts.ts';

/**
 * The agent gets the task done in about as many calls as the reference trajectory: its reads and
 * consequential calls are at most `factor` times the reference's (at least one). Preparatory calls
 * are not counted, and polling (the same call, key included, repeated back to back: a read polled or
 * a write retried under its key) counts once, as a reference `until` step does.
 */
export function efficiency({ facts, params }: RuleContext<'efficiency'>): RuleOutcome {
  const counted = countCalls(facts.calls);
  const allowed = Math.max(1, facts.referenceCalls) * params.factor;
  if (counted <= allowed) return { arose: true, violations: [] };
  return {
    arose: true,
    violations: [
      {
        rule: 'efficiency',
        call: null,
        message: `${counted} read and consequential calls, more than ${params.factor} times the reference's ${facts.referenceCalls}`,
        unsafeClaim: false,
      },
    ],
  };
}

function countCalls(calls: readonly CallFact[]): number {
  let count = 0;
  let previous: CallFact | null = null;
  for (const call of calls) {
    if (call.preparatory) continue;
    const poll = previous !== null && previous.request === call.request && previous.key === call.key;
    if (!poll) count += 1;
    previous = call;
  }
  return count;
}
