import type { Logger } from 'pino';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { type PolicyEngine, TOOL_TYPE } from '../policy/policy-engine.ts';
import type { PolicyEntity } from '../policy/policy-entity.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import type { CallState } from './call-state.ts';
import { buildEnvelope } from './envelope-builder.ts';

/**
 * The policy layer: after input validation (policies read the validated input) and before a new
 * operation is reserved; a delivery of an already executed key is answered from its record, whatever
 * the policy says now. The tool's module resolves the resource in the caller's tenant first: when it
 * finds none, the policies are not asked and the handler answers its own not-found, so that another
 * tenant's resource stays indistinguishable from a missing one. Answers the refusal (`failed` /
 * `POLICY_DENIED`, nothing executed or reserved), or null when the call may go on.
 */
export async function policyRefusal(
  call: CallState,
  engine: PolicyEngine,
  signal: AbortSignal,
  log: Logger,
  metrics: GatewayMetrics,
): Promise<OutcomeEnvelope | null> {
  const { tool, principal } = call;
  const definition = tool.definition;
  call.policy = { version: engine.version, deniedBy: null };
  const hookContext = { principal, signal, log };
  const resource: PolicyEntity | null = definition.policyResource
    ? await definition.policyResource(call.args, hookContext)
    : { type: TOOL_TYPE, id: definition.name, attributes: { tenant: principal.tenant } };
  if (resource === null) return null;
  // The module's facts are looked up only for policies that read them (a lookup may cost a query).
  const facts =
    definition.policyFacts && engine.readsFacts(definition.name)
      ? await definition.policyFacts(call.args, hookContext)
      : {};
  const decision = engine.decide({
    principal,
    action: definition.name,
    resource,
    input: call.args,
    facts,
  });
  if (decision.allowed) return null;
  if (decision.errors.length > 0) {
    log.warn({ corr: call.correlationId, tool: definition.name, errors: decision.errors }, 'policy errors');
  }
  const policyId = decision.policyId ?? 'default-deny';
  call.policy = { version: engine.version, deniedBy: policyId };
  metrics.policyDenials.inc({ tool: definition.name, reason: policyId });
  return buildEnvelope(tool, {
    status: 'failed',
    code: 'POLICY_DENIED',
    message: decision.reason,
    resolution: `Denied by policy ${policyId} (policy version ${engine.version}); nothing was executed. Ask someone with this authority; do not retry unchanged.`,
  });
}
