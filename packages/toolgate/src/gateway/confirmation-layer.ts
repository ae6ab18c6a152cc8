import type { ConfirmationVia } from '../contract/confirmation.ts';
import { type ConfirmationAsk, confirmationDigest } from '../contract/confirmation.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import type { PossibleDuplicate } from '../operations/keyed-store.ts';
import { agentRelay } from './agent-confirmation.ts';
import type { CallState } from './call-state.ts';
import { clientConfirmation } from './client-confirmation.ts';
import type {
  ConfirmationOutcome,
  ConfirmationRecord,
  ConfirmationStep,
  ConsentChannel,
} from './confirmation-types.ts';

const NO_CONFIRMATION: ConfirmationStep = { kind: 'proceed', confirmation: null };

/**
 * The confirmation layer (after input validation, before a key is reserved; never for dry runs or for a
 * delivery of a key already taken, which is answered from its record): asks the tool whether this
 * input needs a person's confirmation and what they are shown; then either the person's answer,
 * carried back by the client, lets exactly the confirmed request run, or the tool's fallback for a
 * client that cannot ask decides (`park`: reserve the key and wait for an approver). Each way of asking is a file of its own (the
 * client's user, the agent relaying, an approver). Answers the step with the record of how the
 * confirmation went (null: nobody was asked), for the call's audit entry and metrics.
 */
export async function confirmationStep(
  call: CallState,
  channel: ConsentChannel,
  signal: AbortSignal,
  duplicate: PossibleDuplicate | null = null,
): Promise<{ readonly step: ConfirmationStep; readonly record: ConfirmationRecord | null }> {
  let record: ConfirmationRecord | null = null;
  const decided = (via: ConfirmationVia, outcome: ConfirmationOutcome, digestOf: string) => {
    record = { via, outcome, digest: digestOf };
  };
  const step = await confirming(call, channel, signal, duplicate, decided);
  return { step, record };
}

async function confirming(
  call: CallState,
  channel: ConsentChannel,
  signal: AbortSignal,
  duplicate: PossibleDuplicate | null,
  record: (via: ConfirmationVia, outcome: ConfirmationOutcome, digest: string) => void,
): Promise<ConfirmationStep> {
  const { tool } = call;
  const spec = tool.definition.confirm;
  if (!spec || call.mode !== 'execute') return NO_CONFIRMATION;
  const asked = await spec.ask(call.args, {
    principal: call.principal,
    signal,
    correlationId: call.correlationId,
  });
  if (asked === null) return NO_CONFIRMATION;
  if ('refuse' in asked) {
    const refusal = asked.refuse;
    return {
      kind: 'answer',
      envelope: buildEnvelope(tool, { ...refusal, result: null }),
    };
  }
  const ask = duplicate ? namingDuplicate(asked, duplicate) : asked;
  const name = tool.definition.name;
  const digest = confirmationDigest(name, call.args, ask, null);
  const decided = (via: ConfirmationVia, outcome: ConfirmationOutcome, digestOf = digest) =>
    record(via, outcome, digestOf);
  if (channel.canAsk) return clientConfirmation(call, channel, ask, digest, decided);
  const fallback = spec.fallback ?? 'refuse';
  if (fallback === 'refuse') {
    decided('client', 'unavailable');
    return {
      kind: 'answer',
      envelope: buildEnvelope(tool, {
        status: 'failed',
        code: 'CONFIRMATION_UNAVAILABLE',
        message: `${ask.message} This needs the user's own confirmation, which this client cannot ask for; nothing was executed.`,
        resolution:
          'Use a client on MCP 2026-07-28 that supports elicitation, so that the user is asked directly; do not retry with this client.',
      }),
    };
  }
  if (fallback === 'operator') {
    decided('operator', 'asked');
    return { kind: 'park', question: { ask, digest } };
  }
  return agentRelay(call, ask, decided);
}

/**
 * The question with the possible duplicate the gateway found named in it (and bound into its digest),
 * unless the tool's question names it already: the person who confirms decides that this is a new,
 * separate request.
 */
function namingDuplicate(ask: ConfirmationAsk, duplicate: PossibleDuplicate): ConfirmationAsk {
  const at = new Date(duplicate.createdAt).toISOString();
  // The tool's own question may name it already (a domain that checks duplicates itself).
  const named = ask.message.includes(duplicate.operationId);
  return {
    ...ask,
    message: named
      ? ask.message
      : `${ask.message} An identical request was made at ${at} as operation ${duplicate.operationId}; confirming makes this a new, separate one.`,
    facts: { ...ask.facts, possible_duplicate_of: duplicate.operationId },
  };
}
