import { type ConfirmationAsk, confirmationDigest } from '../contract/confirmation.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import type { CallState } from './call-state.ts';
import { confirmationDeclined, confirmationMismatch, confirmedView } from './confirmation-answers.ts';
import {
  CHOICE_FIELD,
  CONFIRM_FIELD,
  type ConfirmationStep,
  type ConsentChannel,
  type RecordConfirmation,
} from './confirmation-types.ts';

/**
 * The client asks its own user (form-mode elicitation): the first call answers the question for the
 * transport to ask; the retry carrying the person's answer runs exactly the request they confirmed, or
 * nothing. `digest` is of the request and question as shown.
 */
export function clientConfirmation(
  call: CallState,
  channel: ConsentChannel,
  ask: ConfirmationAsk,
  digest: string,
  decided: RecordConfirmation,
): ConfirmationStep {
  const { tool } = call;
  const name = tool.definition.name;
  const answer = channel.answer;
  if (answer?.state && answer.action !== 'missing') {
    const { state } = answer;
    if (state.tool !== name || state.key !== call.key || state.digest !== digest) {
      decided('client', 'mismatch');
      return {
        kind: 'answer',
        envelope: confirmationMismatch(
          call,
          'the request or what it would do is not what the person confirmed',
        ),
      };
    }
    if (answer.action !== 'accept' || answer.content?.[CONFIRM_FIELD] !== true) {
      decided('client', answer.action === 'cancel' ? 'cancelled' : 'declined');
      return { kind: 'answer', envelope: confirmationDeclined(call, answer.action === 'cancel') };
    }
    const choice = ask.choice ? answer.content?.[CHOICE_FIELD] : null;
    // A choice on a question that offered none was not made by the person asked.
    const strayChoice = !ask.choice && answer.content?.[CHOICE_FIELD] !== undefined;
    if (strayChoice || (ask.choice && !ask.choice.options.some((o) => o.value === choice))) {
      decided('client', 'mismatch');
      return {
        kind: 'answer',
        envelope: confirmationMismatch(call, 'the answer names no option the person was offered'),
      };
    }
    const chosen = (choice as string | null) ?? null;
    const confirmed = confirmationDigest(name, call.args, ask, chosen);
    decided('client', 'accepted', confirmed);
    return { kind: 'proceed', confirmation: confirmedView('client', ask, chosen, confirmed) };
  }
  decided('client', 'asked');
  return {
    kind: 'ask',
    question: { tool: name, ask, state: { tool: name, key: call.key, digest } },
    envelope: buildEnvelope(tool, {
      status: 'requires_confirmation',
      code: 'CONFIRMATION_REQUIRED',
      message: ask.message,
      resolution: 'The client asks its user; nothing was executed.',
    }),
  };
}
