import { type ConfirmationAsk, type ConfirmationView, confirmationDigest } from '../contract/confirmation.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { parkedEnvelope } from '../operations/operation-envelopes.ts';
import type { CallState } from './call-state.ts';
import { confirmedView } from './confirmation-answers.ts';
import type { OperatorQuestion } from './confirmation-types.ts';

/**
 * The answer to a call the `operator` fallback parked under its reserved operation: it waits for an
 * approver until `expiresAt`; nothing was executed yet.
 */
export function parkedForApprover(
  call: CallState,
  operationId: string,
  question: OperatorQuestion,
  expiresAt: number,
): OutcomeEnvelope {
  return parkedEnvelope(call.tool, operationId, question.ask.message, expiresAt);
}

/** The confirmation an approver gave, as the handler executes under it. */
export function operatorConfirmationView(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  ask: ConfirmationAsk,
  choice: string | null,
): ConfirmationView {
  return confirmedView('operator', ask, choice, confirmationDigest(tool, args, ask, choice));
}
