import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { ConfirmationView } from '../contract/confirmation.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { RegisteredTool, ToolRegistry } from '../contract/tool-registry.ts';
import { servedVersionsFor } from '../contract/tool-versions.ts';
import { type GatewayExceptions, NO_EXCEPTIONS } from '../exceptions/tool-exceptions.ts';
import type { ExecutingOperation, IdempotencyLayer } from '../operations/keyed-store.ts';
import type { PolicyEngine } from '../policy/policy-engine.ts';
import type { AuditSink } from '../telemetry/audit.ts';
import { CallAnnotationSet } from '../telemetry/call-annotations.ts';
import { type CallTrace, GatewayTracing } from '../telemetry/call-tracing.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import { authorizationRefusal } from './authorization-layer.ts';
import type { CallState } from './call-state.ts';
import type { ConfirmationQuestion, ConsentChannel } from './confirmation-types.ts';
import { envelopeBeforeExecution } from './execution-outcome.ts';
import { requirePrincipal } from './identity-layer.ts';
import { validateInput } from './input-layer.ts';
import { type Answered, executeAndSettle, type KeyedPathDeps, keyedPath } from './keyed-path.ts';
import { requireArgumentsObject, resolveTool } from './protocol-layer.ts';
import { type PrincipalRateLimiter, rateLimited } from './rate-limit-layer.ts';
import { applicationOf, recordCall } from './telemetry-layer.ts';

export interface GatewayDeps {
  readonly registry: ToolRegistry;
  readonly idempotency: IdempotencyLayer;
  readonly logger: Logger;
  readonly metrics: GatewayMetrics;
  readonly audit: AuditSink;
  /** Per-principal rate and in-flight limits; absent: none. */
  readonly limits?: PrincipalRateLimiter;
  /** Spans per call and pipeline step (off by default). */
  readonly tracing?: GatewayTracing;
  /** The loaded policy set; absent: no policy layer (the tools' scopes decide alone). */
  readonly policy?: PolicyEngine;
  /** Granted exceptions and the declared kinds: a handler's `ctx.exceptions`, and its policies' facts. */
  readonly exceptions?: GatewayExceptions;
}

export interface ToolCallRequest {
  readonly name: string;
  readonly arguments?: unknown;
  readonly _meta?: Record<string, unknown>;
  /** The caller's W3C `traceparent` header, continued by the call's span. */
  readonly traceparent?: string;
  /**
   * Told the operation id once this delivery has reserved its key and is about to execute (a call made
   * as an MCP task answers then, while execution goes on).
   */
  readonly onReserved?: (operationId: string) => void;
  /** How the transport can reach the person behind the client (absent: it cannot ask them). */
  readonly consent?: ConsentChannel;
  /**
   * The name the client gave in `initialize`, where the transport ties its calls to that handshake (one
   * stdio connection); the application of a call whose token names none.
   */
  readonly clientName?: string;
}

/**
 * A call's envelope, or the question its client must put to its user first (nothing was executed) with
 * the envelope the call's telemetry recorded for it.
 */
export type CallAnswer =
  | { readonly kind: 'envelope'; readonly envelope: OutcomeEnvelope }
  | {
      readonly kind: 'ask';
      readonly question: ConfirmationQuestion;
      readonly envelope: OutcomeEnvelope;
    };

/** A parked call an approver confirmed, to execute as its requester's call. */
export interface ConfirmedCall {
  readonly tool: RegisteredTool;
  readonly principal: Principal;
  readonly args: Record<string, unknown>;
  readonly key: string;
  readonly correlationId: string;
  readonly confirmation: ConfirmationView;
  /** The approver's subject, for the call's audit entry. */
  readonly answeredBy: string;
}

/**
 * The enforcement pipeline of DESIGN.md section 2. Each layer is one module that decides and answers
 * its own refusal; this class only orders the layers and carries the call between them: protocol,
 * identity, rate limit, authorization, input, then the keyed path (keyed-path.ts: idempotency, with the
 * policy and confirmation layers deciding once the key is known to be free and before it is reserved,
 * then execution and output), then telemetry. Authorization runs before input, so that a caller without the
 * tool's scopes learns nothing about its input schema. The protocol and identity layers throw
 * (JSON-RPC errors); every later layer answers with the outcome envelope.
 */
export class Gateway {
  readonly #deps: GatewayDeps & { readonly exceptions: GatewayExceptions };
  readonly #log: Logger;
  /** What the keyed path's steps run on. */
  readonly #path: KeyedPathDeps;

  constructor(deps: GatewayDeps) {
    this.#deps = { ...deps, exceptions: deps.exceptions ?? NO_EXCEPTIONS };
    this.#log = deps.logger.child({ channel: 'gateway' });
    this.#path = {
      idempotency: deps.idempotency,
      policy: deps.policy,
      log: this.#log,
      metrics: deps.metrics,
      audit: deps.audit,
      exceptions: this.#deps.exceptions,
    };
  }

  get registry(): ToolRegistry {
    return this.#deps.registry;
  }

  /** The per-principal limits, which the transports charge for requests other than tool calls. */
  get limits(): PrincipalRateLimiter | undefined {
    return this.#deps.limits;
  }

  /**
   * The tools this principal may call (every tool when the transport knows no principal): those whose
   * scopes it holds and, under a policy set, that some policy could permit it; of a name served in two
   * versions, the one it is served.
   */
  listTools(principal: Principal | null): Record<string, unknown>[] {
    const { registry } = this.#deps;
    if (!principal) return registry.listing();
    const policy = this.#deps.policy;
    return registry.listingFor(
      principal.scopes,
      policy
        ? { key: policyListingKey(principal), permits: (tool) => policy.couldPermit(principal, tool) }
        : undefined,
      registry.versionedNames().length > 0 ? servedVersionsFor(registry, principal) : undefined,
    );
  }

  /** The version of the loaded policy set, or null without one. */
  get policyVersion(): string | null {
    return this.#deps.policy?.version ?? null;
  }

  /** The metrics, where the transports count the size of each tools/call answer they write. */
  get metrics(): GatewayMetrics {
    return this.#deps.metrics;
  }

  /**
   * One tools/call, the gateway's one entry for it: the outcome envelope, or, for a client that can ask
   * its user (`request.consent`) and a tool that needs a person's confirmation first, the question to
   * put to them (nothing was executed) with the envelope its telemetry recorded. The transport shapes
   * the MCP answer (transport/tool-results.ts).
   */
  async call(
    request: ToolCallRequest,
    principal: Principal | null,
    signal?: AbortSignal,
  ): Promise<CallAnswer> {
    const { envelope, question } = await this.#traced(request, principal, signal);
    if (question) return { kind: 'ask', question, envelope };
    return { kind: 'envelope', envelope };
  }

  /**
   * Executes a parked call an approver confirmed, as its requester's call under the operation the
   * approver's claim holds: the same execution, settlement, audit and metrics as any delivery. An entry
   * of its own, not a tools/call: the claim (operator/answer-confirmation.ts) already holds the
   * operation, so there is no key to look up, no policy or confirmation to decide and nothing to reserve.
   */
  async executeConfirmed(confirmed: ConfirmedCall, operation: ExecutingOperation): Promise<OutcomeEnvelope> {
    const call: CallState = {
      tool: confirmed.tool,
      principal: confirmed.principal,
      correlationId: confirmed.correlationId,
      startedAt: performance.now(),
      args: confirmed.args,
      mode: 'execute',
      key: confirmed.key,
      trace: GatewayTracing.off.startCall(undefined),
      confirmation: {
        via: 'operator',
        outcome: 'accepted',
        digest: confirmed.confirmation.digest,
        answeredBy: confirmed.answeredBy,
      },
      policy: this.#deps.policy ? { version: this.#deps.policy.version, deniedBy: null } : null,
      application: confirmed.principal.application ?? null,
      environment: confirmed.tool.definition.environmentOf(confirmed.args),
      annotations: new CallAnnotationSet(),
      auditedWithOutcome: false,
    };
    const answered = await executeAndSettle(this.#path, call, operation, confirmed.confirmation, undefined);
    return (await this.#finish(answered)).envelope;
  }

  async #traced(
    request: ToolCallRequest,
    principal: Principal | null,
    signal: AbortSignal | undefined,
  ): Promise<Answered> {
    const span = (this.#deps.tracing ?? GatewayTracing.off).startCall(request.traceparent);
    try {
      const { answered, facts } = await this.#pipeline(request, principal, signal, span);
      const { envelope } = answered;
      span.end({
        tool: envelope.tool,
        contractVersion: envelope.contract_version,
        status: envelope.status,
        code: envelope.code,
        replayed: envelope.replayed,
        operationId: envelope.operation_id,
        tenant: principal?.tenant ?? null,
        confirmation: facts?.confirmation ? `${facts.confirmation.via}:${facts.confirmation.outcome}` : null,
        policyVersion: this.#deps.policy?.version ?? null,
        policyDenied: facts?.policy?.deniedBy ?? null,
        retryable: envelope.retryable,
        application: facts?.application ?? principal?.application ?? null,
        environment: facts?.environment ?? null,
        annotations: facts?.annotations.values ?? {},
      });
      return answered;
    } catch (error) {
      span.fail(error);
      throw error;
    }
  }

  /**
   * The layers in order, answering the call and, once its input was validated, its facts as the last
   * step left them (for its span; null for a call refused before).
   */
  async #pipeline(
    request: ToolCallRequest,
    principal: Principal | null,
    signal: AbortSignal | undefined,
    span: CallTrace,
  ): Promise<{ readonly answered: Answered; readonly facts: CallState | null }> {
    // The protocol layer: an unknown tool or arguments that are not an object are JSON-RPC errors.
    const tool = resolveTool(this.#deps.registry, request.name, principal, request._meta);
    const rawArgs = requireArgumentsObject(request.arguments);
    // The identity layer: the transport verified the principal; a call without one is refused.
    const who = requirePrincipal(principal);
    const received: CallState = {
      tool,
      principal: who,
      correlationId: randomUUID(),
      startedAt: performance.now(),
      args: rawArgs,
      mode: 'execute',
      key: null,
      trace: span,
      confirmation: null,
      policy: this.#deps.policy ? { version: this.#deps.policy.version, deniedBy: null } : null,
      application: applicationOf(who, request._meta, request.clientName),
      environment: null,
      annotations: new CallAnnotationSet(),
      auditedWithOutcome: false,
    };
    const refused = async (envelope: OutcomeEnvelope) => ({
      answered: await this.#finish({ call: received, envelope }),
      facts: null,
    });
    // The rate-limit layer: a caller over its rate is refused before any other work and reserves no key.
    const overRate = this.#deps.limits?.takeToken(who, tool.definition.kind);
    if (overRate) return refused(rateLimited(tool, overRate));
    // The authorization layer, before anything about the input schema is echoed to a caller who may
    // not use the tool at all.
    const forbidden = authorizationRefusal(tool, who);
    if (forbidden) return refused(forbidden);
    // The input layer: closed objects, one field error per problem; the validated call's facts.
    const input = validateInput(tool, rawArgs, request._meta);
    if (!input.ok) return refused(input.refusal);
    const call: CallState = {
      ...received,
      args: input.args,
      environment: tool.definition.environmentOf(input.args),
      key: input.key,
      mode: tool.definition.supportsDryRun && input.args.dry_run === true ? 'dry_run' : 'execute',
    };
    // One caller's writes may not hold every database connection: a delivery takes its write slot only
    // to start a new operation, right before reserving it (refused, it reserves nothing), and holds it
    // while that executes; a delivery that joins the key's operation takes none.
    const { key } = call;
    const keyed = tool.definition.kind !== 'read' && call.mode === 'execute' && key !== null;
    const slot = keyed ? this.#deps.limits?.writeSlotFor(tool, who, key) : undefined;
    let facts = call;
    try {
      // The policy, confirmation, idempotency, execution and output layers, in the keyed path's steps.
      const answered = await keyedPath(this.#path, call, request, signal, slot);
      facts = answered.call;
      // The telemetry layer: metrics, log and audit.
      return { answered: await this.#finish(answered), facts };
    } catch (error) {
      // Reached only when a layer itself failed before the handler ran: nothing was executed.
      const envelope = envelopeBeforeExecution(facts, error, this.#log);
      return { answered: await this.#finish({ call: facts, envelope }), facts };
    } finally {
      slot?.giveBack();
    }
  }

  async #finish(answered: Answered): Promise<Answered> {
    await recordCall(this.#deps, this.#log, answered.call, answered.envelope);
    return answered;
  }
}

/**
 * The class of principals that see the same tools/list under a policy set: a policy may name a
 * principal, its groups, tenant, actor or scopes, so every one of those claims, as JSON (no two
 * principals' claims encode alike).
 */
function policyListingKey(principal: Principal): string {
  return JSON.stringify([
    principal.tenant,
    principal.subject,
    principal.actor,
    [...principal.scopes].sort(),
    principal.groups ?? [],
  ]);
}
