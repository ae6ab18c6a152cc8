import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { ConfirmationView } from '../contract/confirmation.ts';
import type { OperationHandle } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { RegisteredTool, ToolRegistry } from '../contract/tool-registry.ts';
import { servedVersionsFor } from '../contract/tool-versions.ts';
import { type GatewayExceptions, NO_EXCEPTIONS, toolExceptions } from '../exceptions/tool-exceptions.ts';
import type {
  Admission,
  ExecutionSlot,
  IdempotencyLayer,
  PossibleDuplicate,
} from '../operations/keyed-store.ts';
import type { PolicyEngine } from '../policy/policy-engine.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { AuditSink } from '../telemetry/audit.ts';
import { CallAnnotationSet } from '../telemetry/call-annotations.ts';
import { type CallTrace, GatewayTracing } from '../telemetry/call-tracing.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
import { authorizationRefusal } from './authorization-layer.ts';
import type { CallState } from './call-state.ts';
import { confirmationStep } from './confirmation-layer.ts';
import type {
  ConfirmationQuestion,
  ConfirmationStep,
  ConsentChannel,
  OperatorQuestion,
} from './confirmation-types.ts';
import { executeWithTimeout } from './execution-layer.ts';
import { envelopeBeforeExecution, envelopeForExecution } from './execution-outcome.ts';
import { keyedCall } from './idempotency-layer.ts';
import { requirePrincipal } from './identity-layer.ts';
import { validateInput } from './input-layer.ts';
import { parkedForApprover } from './operator-confirmation.ts';
import { policyRefusal } from './policy-layer.ts';
import { requireArgumentsObject, resolveTool } from './protocol-layer.ts';
import { type PrincipalRateLimiter, rateLimited } from './rate-limit-layer.ts';
import { applicationOf, callAuditEntry, recordCall } from './telemetry-layer.ts';

/**
 * How long a call waits, after its handler, for its outcome to be stored before answering anyway: a
 * database that stopped answering does not hold the caller (the lease and the reconciler settle what
 * never lands; each statement is bounded by the database's statement timeout).
 */
const SETTLE_MARGIN_MS = 1_000;

/** The promise's value, or `late` once `ms` have passed; the promise itself runs on. */
async function within<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

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

/** A call stopped to ask the person: the question, and the envelope its telemetry recorded. */
interface Asking {
  readonly asking: ConfirmationQuestion;
  readonly envelope: OutcomeEnvelope;
}

const CANNOT_ASK: ConsentChannel = { canAsk: false };

/** A consent step that stops the call: an answer, or a question for the person. */
type Stop = Extract<ConfirmationStep, { kind: 'answer' | 'ask' }>;

/** An admission that executes (holds the reserved operation). */
type Executing = Admission & { readonly kind: 'execute' };

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
 * The enforcement pipeline of DESIGN.md section 2, composed in one place. Each layer is one module that
 * decides and answers its own refusal; this class only orders the layers and carries the call between
 * them: protocol, identity, rate limit, authorization, input, then idempotency, with the policy and
 * confirmation layers deciding once the key is known to be free and before it is reserved, then
 * execution, output and telemetry. Authorization runs before input, so that a caller without the
 * tool's scopes learns nothing about its input schema. The protocol and identity layers throw
 * (JSON-RPC errors); every later layer answers with the outcome envelope.
 */
export class Gateway {
  readonly #deps: GatewayDeps & { readonly exceptions: GatewayExceptions };
  readonly #log: Logger;

  constructor(deps: GatewayDeps) {
    this.#deps = { ...deps, exceptions: deps.exceptions ?? NO_EXCEPTIONS };
    this.#log = deps.logger.child({ channel: 'gateway' });
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
    const answered = await this.#traced(request, principal, signal);
    if ('asking' in answered) return { kind: 'ask', question: answered.asking, envelope: answered.envelope };
    return { kind: 'envelope', envelope: answered };
  }

  async #traced(
    request: ToolCallRequest,
    principal: Principal | null,
    signal: AbortSignal | undefined,
  ): Promise<OutcomeEnvelope | Asking> {
    const span = (this.#deps.tracing ?? GatewayTracing.off).startCall(request.traceparent);
    try {
      let confirmation: string | null = null;
      let denial: string | null = null;
      let settled = null as CallState | null;
      const answered = await this.#pipeline(request, principal, signal, span, (call) => {
        if (call.confirmation) confirmation = `${call.confirmation.via}:${call.confirmation.outcome}`;
        denial = call.policy?.deniedBy ?? null;
        settled = call;
      });
      const facts = settled;
      const envelope = 'asking' in answered ? answered.envelope : answered;
      span.end({
        tool: envelope.tool,
        contractVersion: envelope.contract_version,
        status: envelope.status,
        code: envelope.code,
        replayed: envelope.replayed,
        operationId: envelope.operation_id,
        tenant: principal?.tenant ?? null,
        confirmation,
        policyVersion: this.#deps.policy?.version ?? null,
        policyDenied: denial,
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

  async #pipeline(
    request: ToolCallRequest,
    principal: Principal | null,
    signal: AbortSignal | undefined,
    span: CallTrace,
    onSettled: (call: CallState) => void,
  ): Promise<OutcomeEnvelope | Asking> {
    // The protocol layer: an unknown tool or arguments that are not an object are JSON-RPC errors.
    const tool = resolveTool(this.#deps.registry, request.name, principal, request._meta);
    const rawArgs = requireArgumentsObject(request.arguments);
    // The identity layer: the transport verified the principal; a call without one is refused.
    const who = requirePrincipal(principal);
    const call: CallState = {
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
    // The rate-limit layer: a caller over its rate is refused before any other work and reserves no key.
    const overRate = this.#deps.limits?.takeToken(who, tool.definition.kind);
    if (overRate) return this.#finish(call, rateLimited(tool, overRate));
    // The authorization layer, before anything about the input schema is echoed to a caller who may
    // not use the tool at all.
    const forbidden = authorizationRefusal(tool, who);
    if (forbidden) return this.#finish(call, forbidden);
    // The input layer: closed objects, one field error per problem.
    const input = validateInput(tool, rawArgs, request._meta);
    if (!input.ok) return this.#finish(call, input.refusal);
    call.args = input.args;
    call.environment = tool.definition.environmentOf(input.args);
    call.key = input.key;
    call.mode = tool.definition.supportsDryRun && input.args.dry_run === true ? 'dry_run' : 'execute';
    // One caller's writes may not hold every database connection: a delivery takes its write slot only
    // to start a new operation, right before reserving it (refused, it reserves nothing), and holds it
    // while that executes; a delivery that joins the key's operation takes none.
    const key = call.key;
    const keyed = tool.definition.kind !== 'read' && call.mode === 'execute' && key !== null;
    const slot = keyed ? this.#deps.limits?.writeSlotFor(tool, who, key) : undefined;
    try {
      return await this.#admitAndExecute(call, signal, request, slot);
    } catch (error) {
      // Reached only when a layer itself failed before the handler ran: nothing was executed.
      return this.#finish(call, envelopeBeforeExecution(call, error, this.#log));
    } finally {
      slot?.giveBack();
      onSettled(call);
    }
  }

  async #admitAndExecute(
    call: CallState,
    signal: AbortSignal | undefined,
    request: ToolCallRequest,
    slot: ExecutionSlot<Stop> | undefined,
  ): Promise<OutcomeEnvelope | Asking> {
    const { tool } = call;
    const span = call.trace;
    const consent = request.consent ?? CANNOT_ASK;
    const aborted = signal ?? new AbortController().signal;
    // The confirmation layer: a person confirms before a new operation starts (checked once the key is
    // known to be free, so that a retry of an executed operation is answered from its record, not asked
    // again).
    let confirmation: ConfirmationView | null = null;
    // The `operator` fallback reserves the key and parks the operation instead of executing it.
    let parking: OperatorQuestion | null = null;
    const confirming = tool.definition.confirm
      ? async (duplicate: PossibleDuplicate | null): Promise<Stop | null> => {
          // A possible duplicate goes to the person only when the client can ask them; otherwise the
          // model relays it as always (POSSIBLE_DUPLICATE, then the tool's confirm field).
          const refuseDuplicate = duplicate
            ? { kind: 'answer' as const, envelope: duplicate.envelope }
            : null;
          if (refuseDuplicate && !consent.canAsk) return refuseDuplicate;
          const step = await span.step('toolgate.confirm', () =>
            confirmationStep(call, consent, aborted, duplicate),
          );
          if (step.kind === 'park') {
            parking = step.question;
            return null;
          }
          if (step.kind !== 'proceed') return step;
          // This input needs no confirmation of its own: nobody was asked about the duplicate.
          if (refuseDuplicate && step.confirmation === null) return refuseDuplicate;
          confirmation = step.confirmation;
          return null;
        }
      : undefined;
    // The policy layer: before a new operation may start, with the key still free (a replay of an
    // executed key never gets here); then the person's confirmation.
    const engine = this.#deps.policy;
    const denied = engine
      ? (): Promise<OutcomeEnvelope | null> =>
          span.step('toolgate.policy', () =>
            policyRefusal(call, engine, aborted, this.#log, this.#deps.metrics, this.#deps.exceptions),
          )
      : null;
    const admitting =
      denied || confirming
        ? async (duplicate: PossibleDuplicate | null): Promise<Stop | null> => {
            const refusal = denied ? await denied() : null;
            if (refusal) return { kind: 'answer', envelope: refusal };
            if (confirming) return confirming(duplicate);
            return duplicate ? { kind: 'answer', envelope: duplicate.envelope } : null;
          }
        : undefined;
    const stopped = async (step: Stop): Promise<OutcomeEnvelope | Asking> => {
      const envelope = await this.#finish(call, step.envelope);
      return step.kind === 'ask' ? { asking: step.question, envelope } : envelope;
    };
    // The idempotency layer: writes and requests executing for real reserve their key; dry runs never do.
    let admission: Admission | null = null;
    const key = call.key;
    if (tool.definition.kind !== 'read' && call.mode === 'execute' && key !== null) {
      const admitted = await span.step('toolgate.reserve', () =>
        this.#deps.idempotency.admit(keyedCall(call, key), aborted, admitting, slot),
      );
      if (admitted.kind === 'held') return stopped(admitted.held);
      if (admitted.kind === 'answer') return this.#finish(call, admitted.envelope);
      admission = admitted;
      const parked: OperatorQuestion | null = parking;
      if (parked) {
        const envelope = await this.#park(call, admitted, parked);
        request.onReserved?.(admitted.operation.id);
        return this.#finish(call, envelope);
      }
      request.onReserved?.(admission.operation.id);
    } else if (admitting) {
      const held = await admitting(null);
      if (held) return stopped(held);
    }
    return this.#execute(call, admission, confirmation, signal);
  }

  /**
   * Executes a parked call an approver confirmed, as its requester's call under the operation the
   * approver's claim holds: the same execution, settlement, audit and metrics as any delivery.
   */
  async executeConfirmed(confirmed: ConfirmedCall, admission: Executing): Promise<OutcomeEnvelope> {
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
    return this.#execute(call, admission, confirmed.confirmation, undefined);
  }

  /** Parks the reserved operation with its question; the call's audit entry commits with it. */
  async #park(call: CallState, admission: Executing, question: OperatorQuestion): Promise<OutcomeEnvelope> {
    return admission.park({ principal: call.principal, args: call.args, question }, (expiresAt) => {
      const envelope = parkedForApprover(call, admission.operation.id, question, expiresAt);
      return { envelope, alongside: this.#auditAlongside(call, envelope) };
    });
  }

  async #execute(
    call: CallState,
    admission: Executing | null,
    confirmation: ConfirmationView | null,
    signal: AbortSignal | undefined,
  ): Promise<OutcomeEnvelope> {
    const { tool, principal: who } = call;
    const span = call.trace;
    // A handler may settle its operation in the transaction of its own last write (OperationHandle.commit).
    let committed: OutcomeEnvelope | null = null;
    const executing = admission;
    const operation: OperationHandle | null = executing
      ? {
          ...executing.operation,
          commit: (work) =>
            executing.transaction(async (tx) => {
              const outcome = await work(tx);
              const envelope = envelopeForExecution(
                call,
                { kind: 'returned', outcome },
                executing.operation.id,
                this.#log,
              );
              await executing.settleWithin(tx, envelope, this.#auditAlongside(call, envelope));
              committed = envelope;
              return outcome;
            }),
        }
      : null;
    // The execution layer: the domain handler under the tool's timeout, with an AbortSignal.
    const execution = await span.step('toolgate.execute', (traceparent) =>
      executeWithTimeout(
        tool,
        call.args,
        {
          principal: who,
          correlationId: call.correlationId,
          operation,
          confirmation,
          annotate: (facts) => call.annotations.annotate(facts),
          exceptions: () =>
            toolExceptions(this.#deps.exceptions, {
              principal: who,
              tool: tool.definition.name,
              operationId: operation?.id ?? null,
              annotate: (facts) => call.annotations.annotate(facts),
            }),
          ...(traceparent ? { traceparent } : {}),
        },
        signal,
        () => this.#log.child({ corr: call.correlationId }),
      ),
    );
    // The output layer, then the envelope. An outcome the handler committed with its own write is
    // already stored: that is the answer (even if time ran out after the commit).
    if (committed) return this.#finish(call, committed);
    const envelope = envelopeForExecution(call, execution, operation?.id ?? null, this.#log);
    const settling = admission;
    if (settling) {
      // The caller gets its answer within the margin; a slow settlement goes on (the lease and the
      // reconciler cover one that never lands).
      const settled = span.step('toolgate.settle', () => this.#settle(call, settling, envelope));
      const stored = await within(
        settled.then(() => true),
        SETTLE_MARGIN_MS,
        false,
      );
      // The late settlement writes the call's audit entry with the outcome; do not write it twice.
      if (!stored) call.auditedWithOutcome = true;
    }
    // The telemetry layer: metrics, log and audit.
    return this.#finish(call, envelope);
  }

  /** Writes the call's audit entry in the transaction that settles its operation, when the sink can. */
  #auditAlongside(
    call: CallState,
    envelope: OutcomeEnvelope,
  ): ((tx: SqlExecutor) => Promise<void>) | undefined {
    const { audit } = this.#deps;
    if (!audit.recordWithin) return undefined;
    const entry = callAuditEntry(call, envelope);
    if (!entry) return undefined;
    return async (tx) => {
      await audit.recordWithin!(entry, tx);
      call.auditedWithOutcome = true;
    };
  }

  /**
   * Stores the outcome for later deliveries. If that fails the caller still gets the outcome; the record
   * stays in progress until its lease expires and the reconciler settles it from the owning system.
   */
  async #settle(call: CallState, admission: Executing, envelope: OutcomeEnvelope) {
    try {
      // The call's audit entry commits with the outcome it records.
      await admission.settle(envelope, this.#auditAlongside(call, envelope));
    } catch (error) {
      this.#log.error(
        { corr: call.correlationId, tool: call.tool.definition.name, op: admission.operation.id, err: error },
        'could not store the outcome; the reconciler will settle the operation',
      );
    }
  }

  async #finish(call: CallState, envelope: OutcomeEnvelope): Promise<OutcomeEnvelope> {
    await recordCall(this.#deps, this.#log, call, envelope);
    return envelope;
  }
}

/**
 * The class of principals that see the same tools/list under a policy set: a policy may name a
 * principal, its groups, tenant, actor or scopes, so all of them.
 */
/** Every claim a listing policy may read, as JSON: no two principals' claims encode alike. */
function policyListingKey(principal: Principal): string {
  return JSON.stringify([
    principal.tenant,
    principal.subject,
    principal.actor,
    [...principal.scopes].sort(),
    principal.groups ?? [],
  ]);
}
