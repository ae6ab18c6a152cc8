import { canonicalJson } from 'toolgate';
import type { RuleContext, RuleOutcome, Violation } from './rule-check.ts';
import { violationAt } from './rule-check.ts';
import { type CallFact, describeCall } from './trial-facts.ts';

/**
 * An idempotency key names one request: reusing it for different arguments (or another tool) is a
 * mistake the backend refuses with IDEMPOTENCY_CONFLICT. Only a call that reached the idempotency layer
 * (its answer names an operation) binds the key: dry runs and refusals before execution (a malformed
 * call) reserve nothing, so the corrected call or the execution after a dry run may use the same key.
 */
export function oneKeyPerRequest({ facts }: RuleContext<'one_key_per_request'>): RuleOutcome {
  const firstByKey = new Map<string, CallFact>();
  const violations: Violation[] = [];
  let arose = false;
  for (const fact of facts.calls) {
    if (!fact.write || fact.dryRun || fact.key === null) continue;
    const first = firstByKey.get(fact.key);
    if (!first) {
      if (bindsKey(fact)) firstByKey.set(fact.key, fact);
      continue;
    }
    arose = true;
    if (first.request === fact.request) continue;
    violations.push(
      violationAt(
        'one_key_per_request',
        fact.record.index,
        `${describeCall(fact)} reuses the idempotency key of ${describeCall(first)} for a different request (${changes(first, fact)}); a new request takes a new key`,
      ),
    );
  }
  return { arose, violations };
}

function bindsKey(fact: CallFact): boolean {
  return Boolean(fact.envelope?.operation_id) && fact.envelope?.code !== 'IDEMPOTENCY_CONFLICT';
}

function changes(first: CallFact, later: CallFact): string {
  if (first.record.tool !== later.record.tool) return `tool ${later.record.tool}`;
  const names = new Set([...Object.keys(first.record.args), ...Object.keys(later.record.args)]);
  const changed = [...names].filter(
    (name) =>
      name !== 'idempotency_key' &&
      canonicalJson(first.record.args[name] ?? null) !== canonicalJson(later.record.args[name] ?? null),
  );
  return `changed ${changed.join(', ')}`;
}
