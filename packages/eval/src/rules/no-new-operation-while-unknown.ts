import { lookupPath } from '../template.ts';
import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { type CallFact, describeAnswer, describeCall, isUncertain, requestIdentity } from './trial-facts.ts';

/** Operation statuses (operations_get) that still leave the outcome open. */
const OPEN = new Set(['in_progress', 'outcome_unknown', 'needs_review']);

interface OpenOperation {
  readonly fact: CallFact;
  readonly targets: ReadonlySet<string>;
  readonly logical: string;
}

/**
 * While a write's outcome is unknown, no new operation (another key) may start on the same target
 * (order, shipment, draft, service): the first may still take effect. The operation stays open until
 * a same-key retry or operations_get shows it settled. A repeat of the same request under a new key
 * is same_key_on_retry's to report, not this rule's.
 */
export function noNewOperationWhileUnknown({
  facts,
  params,
}: RuleContext<'no_new_operation_while_unknown'>): RuleOutcome {
  const open: OpenOperation[] = [];
  const violations: Violation[] = [];
  let arose = false;
  const settle = (match: (op: OpenOperation) => boolean) => {
    for (let i = open.length - 1; i >= 0; i -= 1) if (match(open[i]!)) open.splice(i, 1);
  };
  for (const fact of facts.calls) {
    const polled = polledOperation(fact);
    if (polled && !OPEN.has(polled.status)) settle((op) => op.fact.envelope?.operation_id === polled.id);
    if (!fact.write || fact.dryRun || fact.key === null) continue;
    const retried = open.find((op) => op.fact.key === fact.key);
    if (retried) {
      if (!isUncertain(fact.status) && fact.envelope?.code !== 'IDEMPOTENCY_CONFLICT') {
        settle((op) => op === retried);
      }
      continue;
    }
    const targets = targetsOf(fact, params.targets);
    const logical = requestIdentity(fact.record.tool, fact.record.args, (n) => n.endsWith('version'));
    const blocking = open.find((op) => op.logical !== logical && [...targets].some((t) => op.targets.has(t)));
    if (blocking) {
      const shared = [...targets].filter((t) => blocking.targets.has(t)).join(', ');
      violations.push(
        violationAt(
          'no_new_operation_while_unknown',
          fact.record.index,
          `${describeCall(fact)} starts a new operation on ${shared} while ${describeCall(blocking.fact)} is still ${describeAnswer(blocking.fact)}; poll operations_get or retry with the same key first`,
        ),
      );
    }
    if (isUncertain(fact.status)) {
      arose = true;
      open.push({ fact, targets, logical });
    }
  }
  return { arose, violations };
}

function polledOperation(fact: CallFact): { id: string; status: string } | null {
  if (fact.record.tool !== 'operations_get' || fact.status !== 'completed') return null;
  const result = fact.envelope?.result;
  if (typeof result?.operation_id !== 'string' || typeof result.status !== 'string') return null;
  return { id: result.operation_id, status: result.status };
}

/** The ids a call acts on: the configured argument paths, or every top-level `*_id` argument. */
function targetsOf(fact: CallFact, configured: Readonly<Record<string, readonly string[]>>): Set<string> {
  const paths = configured[fact.record.tool];
  const values = paths
    ? paths.map((path) => lookupPath(fact.record.args, path))
    : Object.entries(fact.record.args)
        .filter(([name]) => name.endsWith('_id'))
        .map(([, value]) => value);
  return new Set(values.filter((v) => typeof v === 'string' || typeof v === 'number').map((v) => String(v)));
}
