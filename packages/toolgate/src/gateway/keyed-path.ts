import type { Logger } from 'pino';
import type { ConfirmationView } from '../contract/confirmation.ts';
import type { OperationHandle } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { type GatewayExceptions, toolExceptions } from '../exceptions/tool-exceptions.ts';
import type {
  ExecutingOperation,
  IdempotencyLayer,
  JoinWait,
  KeyedCall,
  PossibleDuplicate,
} from '../operations/keyed-store.ts';
import type { OperationRecord } from '../operations/operation-record.ts';
import type { PolicyEngine } from '../policy/policy-engine.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { AuditSink } from '../telemetry/audit.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';
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
import { parkedForApprover } from './operator-confirmation.ts';
import { policyRefusal } from './policy-layer.ts';
import type { ExecutionSlot } from './rate-limit-layer.ts';
import { callAuditEntry } from './telemetry-layer.ts';

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

export interface KeyedPathDeps {
  readonly idempotency: IdempotencyLayer;
  readonly policy?: PolicyEngine | undefined;
  readonly log: Logger;
  readonly metrics: GatewayMetrics;
  readonly audit: AuditSink;
  readonly exceptions: GatewayExceptions;
}

/** What the transport told about the call that the path needs. */
export interface PathRequest {
  /** How the transport can reach the person behind the client (absent: it cannot ask them). */
  readonly consent?: ConsentChannel;
  /** Told the operation id once this delivery has reserved its key and is about to execute. */
  readonly onReserved?: (operationId: string) => void;
}

/**
 * A call the path answered: the envelope, the question for the person when it stopped to ask them
 * (nothing executed), and the call's facts as its last deciding step left them, for its telemetry.
 */
export interface Answered {
  readonly call: CallState;
  readonly envelope: OutcomeEnvelope;
  readonly question?: ConfirmationQuestion;
}

/** A step that stops the call: an answer, or a question for the person; nothing was reserved. */
type Stop = Extract<ConfirmationStep, { kind: 'answer' | 'ask' }>;

/** How the steps up to the reservation came out: the operation to execute, an answer, or a stop. */
type Admitted =
  | { readonly kind: 'execute'; readonly operation: ExecutingOperation }
  | { readonly kind: 'answer'; readonly envelope: OutcomeEnvelope }
  | { readonly kind: 'stopped'; readonly stop: Stop };

/** What the confirmation step left for the execution: the confirmation the handler sees, or the approver's question. */
interface Cleared {
  readonly confirmation: ConfirmationView | null;
  /** The `operator` fallback: the key is reserved and the operation parked instead of executed. */
  readonly parking: OperatorQuestion | null;
}

const CANNOT_ASK: ConsentChannel = { canAsk: false };
const NOTHING_CLEARED: Cleared = { confirmation: null, parking: null };

/**
 * The steps of a validated call after its input, in order: key lookup (a replay, a join or wait, a
 * conflict, a parked question's answer, a failed record to take over), then, with the key free, the
 * policy and confirmation layers (ask, relay, park), the write slot, the reservation, the execution
 * and the settlement. Each step answers the call or passes it on. Dry runs and reads reserve nothing:
 * they run policy, confirmation and execution only. The idempotency store answers each primitive
 * with what it found and never calls back; the order and what holds between the steps are here.
 */
export function keyedPath(
  deps: KeyedPathDeps,
  call: CallState,
  request: PathRequest,
  signal: AbortSignal | undefined,
  slot: ExecutionSlot<Stop> | undefined,
): Promise<Answered> {
  return new Delivery(deps, call, request, signal, slot).run();
}

/** One delivery of a validated call along the path. */
class Delivery {
  readonly #deps: KeyedPathDeps;
  readonly #request: PathRequest;
  readonly #signal: AbortSignal | undefined;
  /** The signal the waits and hooks listen to: the caller's, or one that never fires. */
  readonly #aborted: AbortSignal;
  readonly #slot: ExecutionSlot<Stop> | undefined;
  /** Policy or confirmation must hold before a new execution starts. */
  readonly #gated: boolean;
  /**
   * The call's facts: the input step's, then each policy and confirmation step answers a new copy
   * with its verdict and record (both run again before a failed record is taken over).
   */
  #call: CallState;
  /** What the last confirmation step left for the execution. */
  #cleared: Cleared = NOTHING_CLEARED;

  constructor(
    deps: KeyedPathDeps,
    call: CallState,
    request: PathRequest,
    signal: AbortSignal | undefined,
    slot: ExecutionSlot<Stop> | undefined,
  ) {
    this.#deps = deps;
    this.#call = call;
    this.#request = request;
    this.#signal = signal;
    this.#aborted = signal ?? new AbortController().signal;
    this.#slot = slot;
    this.#gated = deps.policy !== undefined || call.tool.definition.confirm !== undefined;
  }

  async run(): Promise<Answered> {
    try {
      return await this.#steps();
    } catch (error) {
      // Reached only when a step itself failed before the handler ran: nothing was executed.
      return this.#answer(envelopeBeforeExecution(this.#call, error, this.#deps.log));
    }
  }

  async #steps(): Promise<Answered> {
    const call = this.#call;
    const { key } = call;
    // The idempotency layer: writes and requests executing for real reserve their key; dry runs never do.
    if (call.tool.definition.kind === 'read' || call.mode !== 'execute' || key === null) {
      const stop = this.#gated ? await this.#clear(null) : null;
      if (stop) return this.#stopped(stop);
      return this.#execute(null);
    }
    const admitted = await call.trace.step('toolgate.reserve', () => this.#admit(keyedCall(call, key)));
    if (admitted.kind === 'stopped') return this.#stopped(admitted.stop);
    if (admitted.kind === 'answer') return this.#answer(admitted.envelope);
    const { operation } = admitted;
    const parked = this.#cleared.parking;
    if (parked) {
      const answered = await this.#park(operation, parked);
      this.#request.onReserved?.(operation.operation.id);
      return answered;
    }
    this.#request.onReserved?.(operation.operation.id);
    return this.#execute(operation);
  }

  /**
   * Up to the reservation. A key already taken is answered from its own record (replayed, waited on,
   * or refused when the request differs) before anything about a new request is worked out: a retry
   * is never taken for a duplicate of another operation, a replay costs one lookup and its audit
   * entry, and neither takes a write slot nor is asked again. With the key free, what must hold
   * before a new operation may start (policy, a person's confirmation, which may settle a possible
   * duplicate too) is settled: a call stopped there reserved nothing. Then the write slot and the
   * reservation; the key frees up again only when its record expired or was purged, and then this
   * delivery reserves it (three rounds at most).
   */
  async #admit(call: KeyedCall): Promise<Admitted> {
    const store = this.#deps.idempotency;
    // The key lookup.
    const taken = await store.find(call);
    if (taken) {
      const joined = await this.#join(call, taken);
      if (joined) return joined;
    }
    const request = await store.suspect(call);
    const { duplicate } = request;
    if (duplicate && !this.#gated) return { kind: 'answer', envelope: duplicate.envelope };
    // Policy and confirmation, with the key still free.
    const stop = this.#gated ? await this.#clear(duplicate) : null;
    if (stop) return { kind: 'stopped', stop };
    const reserveAt = this.#gated ? store.now() : request.at;
    for (let round = 0; round < 3; round += 1) {
      // The write slot, right before reserving.
      const refused = await this.#takeSlot();
      if (refused !== null) {
        // Refused a slot: unless another delivery (of another process, too) has reserved the key by
        // now, in which case this one joins it, holding none.
        const reserved = await store.find(call);
        const joined = reserved ? await this.#join(call, reserved) : null;
        return joined ?? { kind: 'stopped', stop: refused };
      }
      // The reservation.
      const at = round === 0 ? reserveAt : store.now();
      const reservation = await store.reserve(call, request.contentHash, at);
      if (reservation.reserved) return { kind: 'execute', operation: reservation.operation };
      this.#slot?.giveBack();
      const joined = await this.#join(call, reservation.existing);
      if (joined) return joined;
    }
    throw new Error(`operation for key of ${call.tool.definition.name} kept disappearing during reservation`);
  }

  /**
   * Joins the record of a taken key: its answer, or null once the key is free again. A failed
   * execution this delivery did not wait on runs again as a new execution: what must hold before one
   * (policy, a person's confirmation) holds again, then the write slot, then the takeover.
   */
  async #join(call: KeyedCall, found: OperationRecord | null): Promise<Admitted | null> {
    const store = this.#deps.idempotency;
    let known = found;
    let wait: JoinWait | undefined;
    for (;;) {
      const look = await store.join(call, this.#aborted, known, wait);
      known = null;
      if (look.kind === 'free') return null;
      if (look.kind === 'answer') return look;
      const stop = this.#gated ? await this.#clear(null) : null;
      if (stop) return { kind: 'stopped', stop };
      const refused = await this.#takeSlot();
      if (refused !== null) return { kind: 'stopped', stop: refused };
      const operation = await store.takeOver(call, look.record, look.at);
      if (operation) return { kind: 'execute', operation };
      this.#slot?.giveBack();
      wait = look.wait;
    }
  }

  /** The write slot: null once held (or without one), or the refusal that stops the call. */
  async #takeSlot(): Promise<Stop | null> {
    return this.#slot ? await this.#slot.take() : null;
  }

  /**
   * The policy layer, then the confirmation layer: before a new operation may start, with the key
   * still free (a replay of an executed key never gets here). Null lets the call go on.
   */
  async #clear(duplicate: PossibleDuplicate | null): Promise<Stop | null> {
    const { log, metrics, exceptions } = this.#deps;
    const engine = this.#deps.policy;
    if (engine) {
      const verdict = await this.#call.trace.step('toolgate.policy', () =>
        policyRefusal(this.#call, engine, this.#aborted, log, metrics, exceptions),
      );
      this.#call = { ...this.#call, policy: verdict.policy };
      if (verdict.refusal) return { kind: 'answer', envelope: verdict.refusal };
    }
    if (this.#call.tool.definition.confirm) return this.#confirm(duplicate);
    return duplicate ? { kind: 'answer', envelope: duplicate.envelope } : null;
  }

  /**
   * The confirmation layer: a person confirms before a new operation starts (checked once the key is
   * known to be free, so that a retry of an executed operation is answered from its record, not
   * asked again). A possible duplicate goes to the person only when the client can ask them;
   * otherwise the model relays it as always (POSSIBLE_DUPLICATE, then the tool's confirm field).
   */
  async #confirm(duplicate: PossibleDuplicate | null): Promise<Stop | null> {
    const consent = this.#request.consent ?? CANNOT_ASK;
    const refuseDuplicate: Stop | null = duplicate ? { kind: 'answer', envelope: duplicate.envelope } : null;
    if (refuseDuplicate && !consent.canAsk) return refuseDuplicate;
    const call = this.#call;
    const { step, record } = await call.trace.step('toolgate.confirm', () =>
      confirmationStep(call, consent, this.#aborted, duplicate),
    );
    if (record) this.#call = { ...call, confirmation: record };
    if (step.kind === 'park') {
      this.#cleared = { ...this.#cleared, parking: step.question };
      return null;
    }
    if (step.kind !== 'proceed') return step;
    // This input needs no confirmation of its own: nobody was asked about the duplicate.
    if (refuseDuplicate && step.confirmation === null) return refuseDuplicate;
    this.#cleared = { ...this.#cleared, confirmation: step.confirmation };
    return null;
  }

  /** Parks the reserved operation with its question; the call's audit entry commits with it. */
  async #park(operation: ExecutingOperation, question: OperatorQuestion): Promise<Answered> {
    const call = this.#call;
    const audit = auditWithSettlement(this.#deps.audit, call);
    const envelope = await operation.park(
      { principal: call.principal, args: call.args, question },
      (expiresAt) => {
        const parked = parkedForApprover(call, operation.operation.id, question, expiresAt);
        return { envelope: parked, alongside: audit.alongside(parked) };
      },
    );
    return { call: { ...call, auditedWithOutcome: audit.written() }, envelope };
  }

  #execute(operation: ExecutingOperation | null): Promise<Answered> {
    return executeAndSettle(this.#deps, this.#call, operation, this.#cleared.confirmation, this.#signal);
  }

  #answer(envelope: OutcomeEnvelope): Answered {
    return { call: this.#call, envelope };
  }

  #stopped(stop: Stop): Answered {
    if (stop.kind === 'ask') return { call: this.#call, envelope: stop.envelope, question: stop.question };
    return this.#answer(stop.envelope);
  }
}

/**
 * The execution and the settlement of a call (its operation's, when it holds one): the handler under
 * the tool's timeout, the output layer's envelope, and the outcome stored for later deliveries within
 * the settle margin, the call's audit entry with it. Also the path of a parked operation an
 * approver's claim holds.
 */
export async function executeAndSettle(
  deps: KeyedPathDeps,
  call: CallState,
  operation: ExecutingOperation | null,
  confirmation: ConfirmationView | null,
  signal: AbortSignal | undefined,
): Promise<Answered> {
  const { tool, principal: who } = call;
  const { log } = deps;
  const span = call.trace;
  const audit = auditWithSettlement(deps.audit, call);
  // A handler may settle its operation in the transaction of its own last write (OperationHandle.commit).
  let committed: OutcomeEnvelope | null = null;
  const handle: OperationHandle | null = operation
    ? {
        ...operation.operation,
        commit: (work) =>
          operation.transaction(async (tx) => {
            const outcome = await work(tx);
            const envelope = envelopeForExecution(
              call,
              { kind: 'returned', outcome },
              operation.operation.id,
              log,
            );
            await operation.settleWithin(tx, envelope, audit.alongside(envelope));
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
        operation: handle,
        confirmation,
        annotate: (facts) => call.annotations.annotate(facts),
        exceptions: () =>
          toolExceptions(deps.exceptions, {
            principal: who,
            tool: tool.definition.name,
            operationId: handle?.id ?? null,
            annotate: (facts) => call.annotations.annotate(facts),
          }),
        ...(traceparent ? { traceparent } : {}),
      },
      signal,
      () => log.child({ corr: call.correlationId }),
    ),
  );
  // The output layer, then the envelope. An outcome the handler committed with its own write is
  // already stored: that is the answer (even if time ran out after the commit).
  const stored: OutcomeEnvelope | null = committed;
  if (stored) return { call: { ...call, auditedWithOutcome: audit.written() }, envelope: stored };
  const envelope = envelopeForExecution(call, execution, handle?.id ?? null, log);
  if (!operation) return { call, envelope };
  // The settlement: the caller gets its answer within the margin; a slow settlement goes on (the
  // lease and the reconciler cover one that never lands).
  const settled = span.step('toolgate.settle', () =>
    settle(log, call, operation, envelope, audit.alongside(envelope)),
  );
  const inTime = await within(
    settled.then(() => true),
    SETTLE_MARGIN_MS,
    false,
  );
  // The late settlement writes the call's audit entry with the outcome; do not write it twice.
  return { call: { ...call, auditedWithOutcome: !inTime || audit.written() }, envelope };
}

/**
 * Stores the outcome for later deliveries. If that fails the caller still gets the outcome; the record
 * stays in progress until its lease expires and the reconciler settles it from the owning system.
 */
async function settle(
  log: Logger,
  call: CallState,
  operation: ExecutingOperation,
  envelope: OutcomeEnvelope,
  alongside: ((tx: SqlExecutor) => Promise<void>) | undefined,
): Promise<void> {
  try {
    // The call's audit entry commits with the outcome it records.
    await operation.settle(envelope, alongside);
  } catch (error) {
    log.error(
      { corr: call.correlationId, tool: call.tool.definition.name, op: operation.operation.id, err: error },
      'could not store the outcome; the reconciler will settle the operation',
    );
  }
}

/**
 * The call's audit entry written in the transaction that settles its operation, when the sink can:
 * `alongside` is that work for an envelope (undefined: the sink cannot, or the call has no entry),
 * `written` whether it ran, so that the telemetry layer does not write the entry again.
 */
function auditWithSettlement(
  sink: AuditSink,
  call: CallState,
): {
  alongside(envelope: OutcomeEnvelope): ((tx: SqlExecutor) => Promise<void>) | undefined;
  written(): boolean;
} {
  let written = false;
  return {
    alongside(envelope) {
      if (!sink.recordWithin) return undefined;
      const entry = callAuditEntry(call, envelope);
      if (!entry) return undefined;
      return async (tx) => {
        await sink.recordWithin!(entry, tx);
        written = true;
      };
    },
    written: () => written,
  };
}
