import type { Principal } from '../auth/principal.ts';
import type { ConfirmationAsk } from '../contract/confirmation.ts';
import type { OperationHandle } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import type { SqlExecutor } from '../store/sql-database.ts';

/** A write/request call in execute mode, as the idempotency layer sees it. */
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

/** Either this delivery executes the operation, or it is answered without executing anything. */
export type Admission =
  | {
      readonly kind: 'execute';
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
  | { readonly kind: 'answer'; readonly envelope: OutcomeEnvelope };

/** An operation the same principal completed recently with the same content, under another key. */
export interface PossibleDuplicate {
  readonly operationId: string;
  readonly createdAt: number;
  /** `requires_confirmation` / `POSSIBLE_DUPLICATE`, for a caller only the model can answer. */
  readonly envelope: OutcomeEnvelope;
}

/**
 * Runs once the key is known to be free, before it is reserved: null lets the reservation go on;
 * anything else stops the call there (nothing reserved) and is handed back as `held`. It is told of
 * a possible duplicate, which it either puts to the person or answers with its envelope; without a
 * gate a possible duplicate is answered with its envelope.
 */
export type ReserveGate<H> = (duplicate: PossibleDuplicate | null) => Promise<H | null>;

/**
 * What a delivery must hold while it executes (its principal's write slot). Taken after the gate, right
 * before the delivery reserves a new operation or takes over one that changed nothing; given back when
 * another delivery got the operation first, so a delivery that joins holds none while it waits.
 * `take` answers null once held, or the refusal that stops the call there, nothing reserved; a slot
 * shared by a fleet of gateways answers once its store has.
 */
export interface ExecutionSlot<H> {
  take(): H | null | Promise<H | null>;
  giveBack(): void;
}

/** The idempotency layer (write/request tools only): reserve atomically, or replay, join or refuse. */
export interface IdempotencyLayer {
  admit<H = never>(
    call: KeyedCall,
    signal: AbortSignal,
    gate?: ReserveGate<H>,
    slot?: ExecutionSlot<H>,
  ): Promise<Admission | { readonly kind: 'held'; readonly held: H }>;
}
