import {
  CONFIRMATION_FIELD,
  type ConfirmationAsk,
  type ConfirmationDetail,
  confirmationDigest,
} from '../contract/confirmation.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import type { CallState } from './call-state.ts';
import { confirmationMismatch, confirmedView } from './confirmation-answers.ts';
import type { ConfirmationStep, RecordConfirmation } from './confirmation-types.ts';

/**
 * The `agent` fallback: the model relays the question; the execution runs only when it sends back,
 * in `confirmation`, the digest of the request as it was shown under its idempotency key (one digest
 * per option when the person chooses). What runs is what was shown, once, though only the model says
 * that a person agreed.
 */
export function agentRelay(
  call: CallState,
  ask: ConfirmationAsk,
  decided: RecordConfirmation,
): ConfirmationStep {
  const name = call.tool.definition.name;
  const options = ask.choice?.options ?? [];
  // Bound to the key too: the digest the model relays runs this one operation, never a second one.
  const digestOf = (choice: string | null) => confirmationDigest(name, call.args, ask, choice, call.key);
  const digests = options.length
    ? options.map((o) => ({ option: o, digest: digestOf(o.value) }))
    : [{ option: null, digest: digestOf(null) }];
  const sent = call.args[CONFIRMATION_FIELD];
  if (typeof sent === 'string' && sent.length > 0) {
    const match = digests.find((d) => d.digest === sent);
    if (!match) {
      decided('agent', 'mismatch', sent);
      return {
        kind: 'answer',
        envelope: confirmationMismatch(call, 'the confirmation sent is not the one shown for this request'),
      };
    }
    decided('agent', 'accepted', match.digest);
    return {
      kind: 'proceed',
      confirmation: confirmedView('agent', ask, match.option?.value ?? null, match.digest),
    };
  }
  decided('agent', 'relayed', digests[0]!.digest);
  const how = relayInstructions(digests);
  return {
    kind: 'answer',
    envelope: buildEnvelope(call.tool, {
      status: 'requires_confirmation',
      code: 'CONFIRMATION_REQUIRED',
      message: `${ask.message}${detailText(ask.details)}`,
      resolution: `Show the user this message and these details as they are; nothing was executed. ${how} If they do not agree, do not call again.`,
    }),
  };
}

/** What the model must send back for each answer the person may give. */
function relayInstructions(
  digests: { option: { value: string; title: string } | null; digest: string }[],
): string {
  if (digests.length === 1 && digests[0]!.option === null) {
    return `Only if they agree, call again with the same arguments and ${CONFIRMATION_FIELD}: "${digests[0]!.digest}".`;
  }
  const each = digests.map((d) => `"${d.option!.title}": ${CONFIRMATION_FIELD} "${d.digest}"`).join('; ');
  return `Ask them to choose, then call again with the same arguments and the confirmation of their choice (${each}).`;
}

function detailText(details: Readonly<Record<string, ConfirmationDetail>> | undefined): string {
  const entries = Object.entries(details ?? {});
  if (entries.length === 0) return '';
  return ` (${entries.map(([k, v]) => `${k}: ${v === null ? 'none' : String(v)}`).join('; ')})`;
}
