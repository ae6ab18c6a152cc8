import type { ConfirmationAsk, ConfirmationVia, ConfirmationView } from '../contract/confirmation.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';

/**
 * What a confirmation state carries from the question to the retry that answers it: the tool, the key
 * of the request and the digest of the request and question as shown. Integrity-protected, bound to
 * the principal, and expiring, by the transport that mints it.
 */
export interface ConfirmationState {
  readonly tool: string;
  readonly key: string | null;
  readonly digest: string;
}

/** The person's answer to an elicitation, as the client sent it back. */
export interface PersonAnswer {
  /** The verified state the question was asked with; null when the retry carried none. */
  readonly state: ConfirmationState | null;
  readonly action: 'accept' | 'decline' | 'cancel' | 'missing';
  readonly content?: Readonly<Record<string, unknown>>;
}

/** How the transport carrying a call can reach the person behind the client. */
export interface ConsentChannel {
  /** The client can put a question to its user and send the answer back (2026-07-28 elicitation). */
  readonly canAsk: boolean;
  /** The answer to a question asked earlier, on the retry that carries it. */
  readonly answer?: PersonAnswer;
}

/** A question for the person, for the transport to ask (form-mode elicitation). */
export interface ConfirmationQuestion {
  readonly tool: string;
  readonly ask: ConfirmationAsk;
  readonly state: ConfirmationState;
}

/** How one confirmation ended, as metrics and the audit trail record it. */
export type ConfirmationOutcome =
  | 'asked'
  | 'accepted'
  | 'declined'
  | 'cancelled'
  | 'mismatch'
  | 'unavailable'
  | 'relayed'
  | 'expired';

/** What the call's audit entry and span say about its confirmation. */
export interface ConfirmationRecord {
  readonly via: ConfirmationVia;
  readonly outcome: ConfirmationOutcome;
  readonly digest: string;
  /** Who answered, when it was not the caller's own user (an approver, for `via: operator`). */
  readonly answeredBy?: string;
}

/** A question an approver answers in the operator console, for a call that reserves and parks its key. */
export interface OperatorQuestion {
  readonly ask: ConfirmationAsk;
  /** The digest of the request and question as shown (no choice made yet). */
  readonly digest: string;
}

export type ConfirmationStep =
  | { readonly kind: 'proceed'; readonly confirmation: ConfirmationView | null }
  | { readonly kind: 'answer'; readonly envelope: OutcomeEnvelope }
  | { readonly kind: 'ask'; readonly question: ConfirmationQuestion; readonly envelope: OutcomeEnvelope }
  | { readonly kind: 'park'; readonly question: OperatorQuestion };

/** The elicitation form's fields: the confirmation, and the option when there is a choice. */
export const CONFIRM_FIELD = 'confirm';
export const CHOICE_FIELD = 'choice';

/** Records how the call's confirmation ended, for its audit entry and metrics. */
export type RecordConfirmation = (
  via: ConfirmationVia,
  outcome: ConfirmationOutcome,
  digest?: string,
) => void;
