import type { Principal } from '../auth/principal.ts';
import type { ConfirmationAsk } from '../contract/confirmation.ts';
import type { OperationHandle } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { OperationRecord } from './operation-record.ts';

/** A write/request call in execute mode, as the idempotency store sees it. */
export interface KeyedCall {
  readonly tool: RegisteredTool;
  readonly principal: Principal;
  readonly key: string;
  readonly fingerprint: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly correlationId: string;
}

/** What a parked call keeps for its later execution: who asked, the validated input, the question. */
export interface ParkedCall {
  readonly principal: Principal;
  readonly args: Readonly<Record<string, unknown>>;
  /** The question as the person would have been shown it, and its digest. */
  readonly question: { readonly ask: ConfirmationAsk; readonly digest: string };
}

/** The operation one delivery holds (reserved, taken over, or claimed by an approver) and executes. */
export interface ExecutingOperation {
  /** The handle without `commit`, which the gateway adds (it builds the envelope to settle with). */
  readonly operation: Omit<OperationHandle, 'commit'>;
  /**
   * Stores the outcome of this execution so later deliveries replay it; `alongside` runs in the
   * same transaction (the call's audit entry).
   */
  settle(envelope: OutcomeEnvelope, alongside?: (tx: SqlExecutor) => Promise<void>): Promise<void>;
  /** `settle` inside a transaction the caller holds (the handler's own write commits with it). */
  settleWithin(
    tx: SqlExecutor,
    envelope: OutcomeEnvelope,
    alongside?: (tx: SqlExecutor) => Promise<void>,
  ): Promise<void>;
  /** A transaction of the database the operation record lives in. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Parks the reserved operation for an approver instead of executing it (the `operator`
   * confirmation fallback): the record waits, with its question, until an approver answers or the
   * question expires. `answer` builds the caller's envelope for that expiry; its `alongside` work
   * (the call's audit entry) commits with the parking. Answers that envelope.
   */
  park(
    call: ParkedCall,
    answer: (expiresAt: number) => {
      readonly envelope: OutcomeEnvelope;
      readonly alongside?: ((tx: SqlExecutor) => Promise<void>) | undefined;
    },
  ): Promise<OutcomeEnvelope>;
}

/** An operation the same principal completed recently with the same content, under another key. */
export interface PossibleDuplicate {
  readonly operationId: string;
  readonly createdAt: number;
  /** `requires_confirmation` / `POSSIBLE_DUPLICATE`, for a caller only the model can answer. */
  readonly envelope: OutcomeEnvelope;
}

/**
 * A new request under a free key: the hash of its content (null for a tool that does not watch for
 * duplicates), a possible duplicate of it, and when it was looked at.
 */
export interface NewRequest {
  readonly contentHash: string | null;
  readonly duplicate: PossibleDuplicate | null;
  readonly at: number;
}

/** How long a delivery that joins a key's record still waits on it, carried over when it looks again. */
export interface JoinWait {
  /** The `performance.now()` past which an operation still in progress is answered in progress. */
  readonly deadline: number;
  readonly pollMs: number;
}

/** What a delivery found under its key, once joined. */
export type KeyLook =
  /** No record (never reserved, gone, or past retention and purged): the key is free. */
  | { readonly kind: 'free' }
  /** The answer from the record: a replay, a conflict, a parked question, or still in progress. */
  | { readonly kind: 'answer'; readonly envelope: OutcomeEnvelope }
  /**
   * An execution that failed (it changed nothing) and that this delivery did not wait on: it may run
   * again by taking the record over (at `at`, the time it was read); `wait` continues the join if it
   * cannot.
   */
  | {
      readonly kind: 'failed';
      readonly record: OperationRecord;
      readonly at: number;
      readonly wait: JoinWait;
    };

/** Either this delivery reserved the key's new operation, or another delivery holds the key. */
export type Reservation =
  | { readonly reserved: true; readonly operation: ExecutingOperation }
  /** The record under the key, as the reservation read it (null: gone again meanwhile). */
  | { readonly reserved: false; readonly existing: OperationRecord | null };

/**
 * The idempotency store (write/request tools in execute mode only; DESIGN.md section 4): the
 * primitives the gateway's keyed path runs its steps on, each answering what it found. One atomic
 * reservation decides which delivery executes; every other delivery of the key joins its record.
 */
export interface IdempotencyLayer {
  /** The store's clock: when a reservation is made. */
  now(): number;
  /** The record under the call's key, or null. */
  find(call: KeyedCall): Promise<OperationRecord | null>;
  /**
   * Joins the record under the call's key (`found` as already read; null: read it first): replays its
   * outcome, waits briefly on one in progress, refuses a changed request, answers a parked question;
   * `free` once there is none, `failed` for an execution that may run again.
   */
  join(
    call: KeyedCall,
    signal: AbortSignal,
    found: OperationRecord | null,
    wait?: JoinWait,
  ): Promise<KeyLook>;
  /** A new request's content hash, and an operation it may be a duplicate of. */
  suspect(call: KeyedCall): Promise<NewRequest>;
  /** Reserves the key for a new operation at `at`, or finds the record that holds it. */
  reserve(call: KeyedCall, contentHash: string | null, at: number): Promise<Reservation>;
  /** Takes over a failed record to run it again (null: another delivery took it first). */
  takeOver(call: KeyedCall, record: OperationRecord, at: number): Promise<ExecutingOperation | null>;
}
