import type { Logger } from 'pino';
import type { HonouredException } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import { type GatewayExceptions, toolExceptions } from '../exceptions/tool-exceptions.ts';
import { type PolicyEngine, TOOL_TYPE } from '../policy/policy-engine.ts';
import type { PolicyEntity } from '../policy/policy-entity.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import type { CallState } from './call-state.ts';

/**
 * `context.facts.exceptions`: of the kinds the tool honours, those in force for the target its input
 * names, granted by someone other than the caller (read again next to the write by `ctx.exceptions.use`).
 */
async function exceptionFacts(
  honoured: readonly HonouredException[],
  call: CallState,
  exceptions: GatewayExceptions,
): Promise<{ exception_id: string; kind: string; granted_by: string }[]> {
  if (!exceptions.store) return [];
  const reader = toolExceptions(exceptions, {
    principal: call.principal,
    tool: call.tool.definition.name,
    operationId: null,
    annotate: (facts) => call.annotations.annotate(facts),
  });
  const found = await Promise.all(
    honoured.map(({ exception, target, at }) => {
      const named = target(call.args);
      const moment = at?.(call.args);
      return named === null ? [] : reader.active(exception, named, moment == null ? {} : { at: moment });
    }),
  );
  return found.flat().map((e) => ({ exception_id: e.exception_id, kind: e.kind, granted_by: e.granted_by }));
}

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
  exceptions: GatewayExceptions,
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
  const readsFacts = engine.readsFacts(definition.name);
  const facts = {
    ...(definition.policyFacts && readsFacts ? await definition.policyFacts(call.args, hookContext) : {}),
    ...(definition.exceptions && readsFacts
      ? { exceptions: await exceptionFacts(definition.exceptions, call, exceptions) }
      : {}),
  };
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
