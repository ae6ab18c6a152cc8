import type { ConfirmationAsk, ConfirmationVia, ConfirmationView } from '../contract/confirmation.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import type { CallState } from './call-state.ts';

/** The confirmation a handler executes under: who confirmed, the option chosen, the facts shown. */
export function confirmedView(
  via: ConfirmationVia,
  ask: ConfirmationAsk,
  choice: string | null,
  digest: string,
): ConfirmationView {
  return { via, choice, facts: ask.facts ?? {}, digest };
}

/** Nothing ran: what was confirmed is not the request as it is now. */
export function confirmationMismatch(call: CallState, why: string): OutcomeEnvelope {
  return buildEnvelope(call.tool, {
    status: 'failed',
    code: 'CONFIRMATION_MISMATCH',
    message: `Not executed: ${why}.`,
    resolution:
      'Call again without the earlier confirmation so that the user is asked about the request as it is now.',
  });
}

/** Nothing ran: the person said no, or dismissed the question. */
export function confirmationDeclined(call: CallState, cancelled: boolean): OutcomeEnvelope {
  return buildEnvelope(call.tool, {
    status: 'rejected',
    code: 'CONFIRMATION_DECLINED',
    message: cancelled
      ? 'The user dismissed the confirmation; nothing was executed.'
      : 'The user declined; nothing was executed.',
    resolution: 'Tell the user nothing was done; call again only if they ask for it.',
  });
}
