import type { Logger } from 'pino';
import type { HonouredException } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import { type GatewayExceptions, toolExceptions } from '../exceptions/tool-exceptions.ts';
import { type PolicyEngine, TOOL_TYPE } from '../policy/policy-engine.ts';
import type { PolicyEntity } from '../policy/policy-entity.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import type { CallState, PolicyFacts } from './call-state.ts';

/** What the policy layer decided: the facts of its verdict, and the refusal when it denied the call. */
export interface PolicyVerdict {
  readonly policy: PolicyFacts;
  readonly refusal: OutcomeEnvelope | null;
}

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
 * `POLICY_DENIED`, nothing executed or reserved), or null when the call may go on, with the verdict
 * for the call's audit entry and span: the policy set's version, and the policy that denied it.
 */
export async function policyRefusal(
  call: CallState,
  engine: PolicyEngine,
  signal: AbortSignal,
  log: Logger,
  metrics: GatewayMetrics,
  exceptions: GatewayExceptions,
): Promise<PolicyVerdict> {
  const { tool, principal } = call;
  const definition = tool.definition;
  const allowed: PolicyVerdict = { policy: { version: engine.version, deniedBy: null }, refusal: null };
  const hookContext = { principal, signal, log };
  const resource: PolicyEntity | null = definition.policyResource
    ? await definition.policyResource(call.args, hookContext)
    : { type: TOOL_TYPE, id: definition.name, attributes: { tenant: principal.tenant } };
  if (resource === null) return allowed;
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
  if (decision.allowed) return allowed;
  if (decision.errors.length > 0) {
    log.warn({ corr: call.correlationId, tool: definition.name, errors: decision.errors }, 'policy errors');
  }
  const policyId = decision.policyId ?? 'default-deny';
  metrics.policyDenials.inc({ tool: definition.name, reason: policyId });
  const refusal = buildEnvelope(tool, {
    status: 'failed',
    code: 'POLICY_DENIED',
    message: decision.reason,
    resolution: `Denied by policy ${policyId} (policy version ${engine.version}); nothing was executed. Ask someone with this authority; do not retry unchanged.`,
  });
  return { policy: { version: engine.version, deniedBy: policyId }, refusal };
}
