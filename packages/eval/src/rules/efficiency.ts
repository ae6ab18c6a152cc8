import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import type { CallFact } from './trial-facts.ts';

/** Statuses (of a write, or of the operation operations_get reads) that leave something to wait for. */
const WAITING = new Set(['in_progress', 'outcome_unknown', 'needs_review', 'submitted']);

/** Redundant reads allowed before they count as a mistake of their own: one look to be sure. */
const REDUNDANT_READS_ALLOWED = 1;

/**
 * The agent gets the task done in about as many calls as the reference trajectory: its reads and
 * consequential calls are at most `factor` times the reference's (at least one). Preparatory calls
 * are not counted, and polling (the same call, key included, repeated back to back: a read polled or
 * a write retried under its key) counts once while something is still to be waited for (an
 * operation unknown, in progress or submitted, a rate limit). A read repeated with nothing to wait
 * for and no write since (a settled operation read again, a record read twice) is redundant: it
 * counts each time, and more than one redundant read fails the rule by itself.
 */
export function efficiency({ facts, params }: RuleContext<'efficiency'>): RuleOutcome {
  const { counted, redundant } = countCalls(facts.calls);
  const allowed = Math.max(1, facts.referenceCalls) * params.factor;
  const violations: Violation[] = [];
  if (counted > allowed) {
    violations.push({
      rule: 'efficiency',
      call: null,
      message: `${counted} read and consequential calls, more than ${params.factor} times the reference's ${facts.referenceCalls}`,
      unsafeClaim: false,
    });
  }
  if (redundant.length > REDUNDANT_READS_ALLOWED) {
    violations.push({
      rule: 'efficiency',
      call: redundant[0]!.record.index,
      message: `${redundant.length} redundant reads (calls ${redundant.map((c) => c.record.index).join(', ')}): each repeats an earlier read with nothing to wait for and no write since`,
      unsafeClaim: false,
    });
  }
  return { arose: true, violations };
}

function countCalls(calls: readonly CallFact[]): { counted: number; redundant: CallFact[] } {
  let counted = 0;
  let previous: CallFact | null = null;
  let waiting = false;
  const redundant: CallFact[] = [];
  const readSinceWrite = new Set<string>();
  for (const call of calls) {
    if (call.preparatory) continue;
    const poll = previous !== null && previous.request === call.request && previous.key === call.key;
    const repeatedRead = !call.write && readSinceWrite.has(call.request);
    if (!waiting && repeatedRead) redundant.push(call);
    if (!(poll && waiting)) counted += 1;
    if (call.write) readSinceWrite.clear();
    else readSinceWrite.add(call.request);
    waiting = waitsAfter(call, waiting);
    previous = call;
  }
  return { counted, redundant };
}

/** Whether, after this call, the agent has something to wait for. */
function waitsAfter(call: CallFact, before: boolean): boolean {
  if (call.envelope?.code === 'RATE_LIMITED') return true;
  if (call.record.tool === 'operations_get') {
    const status = call.envelope?.result?.status;
    return typeof status === 'string' ? WAITING.has(status) : before;
  }
  if (call.write) return WAITING.has(call.status ?? '');
  return before;
}
