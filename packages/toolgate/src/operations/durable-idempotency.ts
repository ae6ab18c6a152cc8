import type { AnyToolDefinition, OperationHandle } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { ToolRegistry } from '../contract/tool-registry.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { Clock } from '../time/clock.ts';
import { requestContentHash, suspectDuplicate } from './duplicate-suspicion.ts';
import type {
  ExecutingOperation,
  IdempotencyLayer,
  JoinWait,
  KeyedCall,
  KeyLook,
  NewRequest,
  Reservation,
} from './keyed-store.ts';
import { abandonedEnvelope, conflictEnvelope, inProgressEnvelope } from './operation-envelopes.ts';
import { newOperationId } from './operation-id.ts';
import { type OperationRecord, statusOfOutcome, TERMINAL_STATUSES } from './operation-record.ts';
import type { OperationStore, Settlement } from './operation-store.ts';
import type { OperationsTuning } from './operations-tuning.ts';
import type { OperatorConfirmations } from './operator-confirmations.ts';
import { requestSummary } from './request-summary.ts';
import type { SettleSignal } from './settle-signal.ts';

export interface DurableIdempotencyDeps {
  readonly store: OperationStore;
  readonly registry: ToolRegistry;
  readonly clock: Clock;
  readonly tuning: OperationsTuning;
  readonly retentionSeconds: number;
  readonly settleSignal: SettleSignal;
  /** Asks the reconciler to look now (a caller is waiting on an unknown outcome). */
  readonly wakeReconciler: () => void;
  /** Questions parked for approvers (the `operator` confirmation fallback). */
  readonly confirmations: OperatorConfirmations;
  /** How long a parked question waits for an approver before the operation is rejected. */
  readonly confirmationTtlSeconds: number;
}

/** How often a duplicate delivery re-reads a record another process is executing, at first and at most. */
const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 100;

/**
 * The idempotency store on a durable store (DESIGN.md section 4). One INSERT ... ON CONFLICT DO NOTHING
 * decides which delivery executes; every other delivery of the same key joins the stored record:
 * replays its outcome, waits briefly for it, or is refused when its request differs. It answers each
 * primitive with what it found; the order of the steps (and what must hold between them) is the
 * gateway's keyed path.
 */
export class DurableIdempotency implements IdempotencyLayer {
  constructor(private readonly deps: DurableIdempotencyDeps) {}

  now(): number {
    return this.deps.clock.now();
  }

  find(call: KeyedCall): Promise<OperationRecord | null> {
    return this.deps.store.findByKey(call.principal.tenant, call.principal.subject, call.key);
  }

  async suspect(call: KeyedCall): Promise<NewRequest> {
    const at = this.deps.clock.now();
    const contentHash = requestContentHash(call.tool.definition, call.args);
    const duplicate = await suspectDuplicate(this.deps.store, call, contentHash, at);
    return { contentHash, duplicate, at };
  }

  async reserve(call: KeyedCall, contentHash: string | null, at: number): Promise<Reservation> {
    const { tenant, subject } = call.principal;
    const definition = call.tool.definition;
    const id = newOperationId(at);
    const reservation = await this.deps.store.reserveOrFind({
      id,
      tenant,
      subject,
      key: call.key,
      tool: definition.name,
      contractVersion: definition.version,
      fingerprint: call.fingerprint,
      contentHash,
      mode: 'execute',
      correlationId: call.correlationId,
      now: at,
      leaseExpiresAt: this.#leaseFrom(call, at),
      expiresAt: at + this.deps.retentionSeconds * 1000,
      requestSummary: JSON.stringify(requestSummary(call.args, definition.sensitiveFields)),
    });
    if (reservation.reserved) return { reserved: true, operation: this.#operation(id, call, {}, {}) };
    return { reserved: false, existing: reservation.existing };
  }

  async takeOver(call: KeyedCall, record: OperationRecord, at: number): Promise<ExecutingOperation | null> {
    const taken = await this.deps.store.takeOver(
      record.id,
      call.correlationId,
      at,
      this.#leaseFrom(call, at),
    );
    return taken ? this.#operation(taken.id, call, taken.checkpoints, taken.externalRefs) : null;
  }

  #leaseFrom(call: Pick<KeyedCall, 'tool'>, now: number): number {
    return now + call.tool.definition.timeoutMs + this.deps.tuning.leaseGraceMs;
  }

  async join(
    call: KeyedCall,
    signal: AbortSignal,
    found: OperationRecord | null,
    wait?: JoinWait,
  ): Promise<KeyLook> {
    const { store, clock, tuning, settleSignal } = this.deps;
    const deadline = wait?.deadline ?? performance.now() + tuning.joinWaitMs;
    let pollMs = wait?.pollMs ?? FIRST_POLL_MS;
    let waited = false;
    let known = found;
    for (;;) {
      const record =
        known ?? (await store.findByKey(call.principal.tenant, call.principal.subject, call.key));
      known = null;
      if (!record) return FREE;
      const now = clock.now();
      // Past retention a settled record is gone for every request, whatever its arguments: one rule.
      if (TERMINAL_STATUSES.includes(record.status) && record.expiresAt <= now) {
        await store.deleteExpired(record.id, now);
        return FREE;
      }
      if (record.fingerprint !== call.fingerprint) return answer(conflictEnvelope(call.tool, record));
      // Parked for an approver: the same answer again, nothing executed; past its expiry, rejected.
      if (record.status === 'awaiting_confirmation') {
        const current = await this.deps.confirmations.expireIfDue(record);
        if (current.status !== 'awaiting_confirmation') {
          known = current;
          continue;
        }
        return answer({ ...current.envelope!, operation_id: current.id, replayed: false });
      }
      if (record.status === 'in_progress') {
        if (record.leaseExpiresAt !== null && record.leaseExpiresAt <= now) {
          await store.abandon(
            record.id,
            abandonedEnvelope(record, this.deps.registry.catalog()),
            now,
            now + this.deps.retentionSeconds * 1000,
          );
          continue;
        }
        const remaining = deadline - performance.now();
        if (remaining <= 0 || signal.aborted) return answer(inProgressEnvelope(call.tool, record.id));
        await settleSignal.wait(record.id, Math.min(pollMs, remaining), signal);
        pollMs = Math.min(pollMs * 2, MAX_POLL_MS);
        waited = true;
        continue;
      }
      // An execution that changed nothing may run again, but not for the deliveries that waited on it.
      if (record.status === 'failed' && !waited) {
        return { kind: 'failed', record, at: now, wait: { deadline, pollMs } };
      }
      if (record.status === 'outcome_unknown' && now - record.updatedAt >= tuning.reconcileBackoffMs) {
        await store.checkSoon(record.id, now);
        this.deps.wakeReconciler();
      }
      return answer(replayOf(record, call.tool.definition));
    }
  }

  /**
   * The execution of a parked operation an approver confirmed: exactly one approver's claim moves it
   * from `awaiting_confirmation` to `in_progress` (with the lease of its tool), and that claim executes;
   * null when it is no longer parked (answered meanwhile, or expired).
   */
  async claimParked(
    call: Pick<KeyedCall, 'tool' | 'key' | 'correlationId'>,
    claim: (run: { correlationId: string; leaseExpiresAt: number }) => Promise<OperationRecord | null>,
  ): Promise<ExecutingOperation | null> {
    const now = this.deps.clock.now();
    const claimed = await claim({
      correlationId: call.correlationId,
      leaseExpiresAt: this.#leaseFrom(call, now),
    });
    if (!claimed) return null;
    return this.#operation(claimed.id, call, claimed.checkpoints, claimed.externalRefs);
  }

  #operation(
    id: string,
    call: Pick<KeyedCall, 'tool' | 'key'>,
    checkpoints: Record<string, unknown>,
    externalRefs: Record<string, string>,
  ): ExecutingOperation {
    const { store, clock, tuning, settleSignal, retentionSeconds, confirmations } = this.deps;
    const { key } = call;
    const ttlMs = this.deps.confirmationTtlSeconds * 1000;
    let savedCheckpoints = { ...checkpoints };
    let savedRefs = { ...externalRefs };
    // Progress writes of one execution apply in call order, each carrying everything saved so far.
    let progress: Promise<void> = Promise.resolve();
    const write = (column: 'checkpoints' | 'external_refs', value: Record<string, unknown>) => {
      const next = progress.then(() => store.saveProgress(id, column, value, clock.now()));
      progress = next.catch(() => undefined);
      return next;
    };
    // Where a settled record stands next: its status, when to check an unknown one, when it expires.
    const settlementOf = (envelope: OutcomeEnvelope): Settlement => {
      const now = clock.now();
      const status = statusOfOutcome(envelope.status);
      const nextCheckAt = status === 'outcome_unknown' ? now + tuning.reconcileBackoffMs : null;
      return { status, envelope, now, nextCheckAt, expiresAt: now + retentionSeconds * 1000 };
    };
    const operation: Omit<OperationHandle, 'commit'> = {
      id,
      key,
      mode: 'execute',
      checkpoints: Object.freeze({ ...checkpoints }),
      saveCheckpoint(name, data) {
        savedCheckpoints = { ...savedCheckpoints, [name]: data };
        return write('checkpoints', savedCheckpoints);
      },
      addExternalRef(system, ref) {
        savedRefs = { ...savedRefs, [system]: ref };
        return write('external_refs', savedRefs);
      },
    };
    return {
      operation,
      async settle(envelope: OutcomeEnvelope, alongside?: (tx: SqlExecutor) => Promise<void>) {
        await progress;
        await store.settle(id, settlementOf(envelope), alongside);
        settleSignal.settled(id);
      },
      async settleWithin(
        tx: SqlExecutor,
        envelope: OutcomeEnvelope,
        alongside?: (tx: SqlExecutor) => Promise<void>,
      ) {
        await progress;
        await store.settleWithin(tx, id, settlementOf(envelope), alongside);
      },
      async transaction(work) {
        const result = await store.transaction(work);
        // Deliveries waiting on this operation look again once what may have settled it is committed.
        settleSignal.settled(id);
        return result;
      },
      async park(parked, answer) {
        const askedAt = clock.now();
        const expiresAt = askedAt + ttlMs;
        const { envelope, alongside } = answer(expiresAt);
        const request = {
          operationId: id,
          requester: parked.principal,
          tool: call.tool.definition.name,
          args: { ...parked.args },
          ask: parked.question.ask,
          digest: parked.question.digest,
          askedAt,
          expiresAt,
        };
        const done = await store.transaction((tx) => confirmations.park(tx, request, envelope, alongside));
        if (!done) throw new Error(`operation ${id} was no longer in progress when it was to be parked`);
        settleSignal.settled(id);
        return envelope;
      },
    };
  }
}

const FREE: KeyLook = { kind: 'free' };

function answer(envelope: OutcomeEnvelope): KeyLook {
  return { kind: 'answer', envelope };
}

/**
 * The stored outcome of an earlier delivery; a record awaiting review answers with its unknown outcome.
 * A tool whose result reports the replay itself marks it (`markReplay`), so result and envelope agree.
 */
function replayOf(record: OperationRecord, definition: AnyToolDefinition): OutcomeEnvelope {
  if (!record.envelope) throw new Error(`operation ${record.id} is ${record.status} without an outcome`);
  const { result } = record.envelope;
  const marked = result && definition.markReplay ? definition.markReplay(result) : result;
  return { ...record.envelope, result: marked, operation_id: record.id, replayed: true };
}
