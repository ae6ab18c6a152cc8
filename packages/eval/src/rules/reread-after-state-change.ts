import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { type CallFact, describeAnswer, describeCall } from './trial-facts.ts';

/** Codes that say the target changed since the caller read it, whatever the domain calls them. */
const STATE_CHANGED = /(?:^|_)(?:STATE_CHANGED|STALE(?:_VERSION)?|VERSION_(?:MISMATCH|CONFLICT))$/;

/**
 * After a write was refused because its target changed since it was read (`ORDER_STATE_CHANGED`),
 * the next write on that target comes after a read of it: the version and the state are read again,
 * never guessed (`expected_version + 1`). Targets are the write's top-level `*_id` arguments; a read
 * names one when any of its arguments carries the same value. A same-key retry of an operation
 * started before the refusal is that operation's, not a new write.
 */
export function rereadAfterStateChange({
  facts,
  params,
}: RuleContext<'reread_after_state_change'>): RuleOutcome {
  const stale = new Map<string, CallFact>();
  const violations: Violation[] = [];
  let arose = false;
  for (const fact of facts.calls) {
    const targets = targetsOf(fact);
    if (!fact.write) {
      if (fact.record.tool === 'operations_get') continue;
      const values = new Set(Object.values(fact.record.args).filter((v) => typeof v === 'string'));
      for (const target of [...stale.keys()]) if (values.has(target)) stale.delete(target);
      continue;
    }
    if (fact.dryRun) continue;
    const refused = targets.find((t) => stale.has(t));
    // A same-key retry of an operation started before the refusal settles that operation; it is no new write.
    const retry =
      refused !== undefined &&
      fact.key !== null &&
      facts.calls.some((c) => c.position < stale.get(refused)!.position && c.key === fact.key);
    if (refused !== undefined && !retry) {
      const earlier = stale.get(refused)!;
      violations.push(
        violationAt(
          'reread_after_state_change',
          fact.record.index,
          `${describeCall(fact)} writes ${refused} again after ${describeCall(earlier)} answered ${describeAnswer(earlier)} without reading it again first; read it, then decide with what it says`,
        ),
      );
      for (const t of targets) stale.delete(t);
    }
    const code = fact.envelope?.code ?? '';
    if (STATE_CHANGED.test(code) || params.codes.includes(code)) {
      arose = true;
      for (const t of targets) stale.set(t, fact);
    }
  }
  return { arose, violations };
}

function targetsOf(fact: CallFact): string[] {
  return Object.entries(fact.record.args).flatMap(([name, value]) =>
    name.endsWith('_id') && typeof value === 'string' ? [value] : [],
  );
}
