import {
  CONFIRMATION_FIELD,
  type ConfirmationAsk,
  type ConfirmationDetail,
  type ConfirmationVia,
  type ConfirmationView,
  confirmationDigest,
} from '../contract/confirmation.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { parkedEnvelope } from '../operations/operation-envelopes.ts';
import type { CallState } from './call-state.ts';
import { buildEnvelope } from './envelope-builder.ts';
import type { PossibleDuplicate } from './idempotency-layer.ts';

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

const NO_CONFIRMATION: ConfirmationStep = { kind: 'proceed', confirmation: null };
/** The elicitation form's fields: the confirmation, and the option when there is a choice. */
export const CONFIRM_FIELD = 'confirm';
export const CHOICE_FIELD = 'choice';

/**
 * The confirmation layer (after input validation, before a key is reserved; never for dry runs or for a
 * delivery of a key already taken, which is answered from its record): asks the tool whether this
 * input needs a person's confirmation and what they are shown; then either the person's answer,
 * carried back by the client, lets exactly the confirmed request run, or the tool's fallback for a
 * client that cannot ask decides (`park`: reserve the key and wait for an approver). Records the outcome on the call for its audit entry and metrics.
 */
export async function confirmationStep(
  call: CallState,
  channel: ConsentChannel,
  signal: AbortSignal,
  duplicate: PossibleDuplicate | null = null,
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
  const decided = (via: ConfirmationVia, outcome: ConfirmationOutcome, digestOf = digest) => {
    call.confirmation = { via, outcome, digest: digestOf };
  };
  const answer = channel.answer;
  if (channel.canAsk && answer?.state && answer.action !== 'missing') {
    const { state } = answer;
    if (state.tool !== name || state.key !== call.key || state.digest !== digest) {
      decided('client', 'mismatch');
      return {
        kind: 'answer',
        envelope: mismatch(call, 'the request or what it would do is not what the person confirmed'),
      };
    }
    if (answer.action !== 'accept' || answer.content?.[CONFIRM_FIELD] !== true) {
      decided('client', answer.action === 'cancel' ? 'cancelled' : 'declined');
      return { kind: 'answer', envelope: declined(call, answer.action === 'cancel') };
    }
    const choice = ask.choice ? answer.content?.[CHOICE_FIELD] : null;
    // A choice on a question that offered none was not made by the person asked.
    const strayChoice = !ask.choice && answer.content?.[CHOICE_FIELD] !== undefined;
    if (strayChoice || (ask.choice && !ask.choice.options.some((o) => o.value === choice))) {
      decided('client', 'mismatch');
      return {
        kind: 'answer',
        envelope: mismatch(call, 'the answer names no option the person was offered'),
      };
    }
    const chosen = (choice as string | null) ?? null;
    const confirmed = confirmationDigest(name, call.args, ask, chosen);
    decided('client', 'accepted', confirmed);
    return { kind: 'proceed', confirmation: view('client', ask, chosen, confirmed) };
  }
  if (channel.canAsk) {
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
 * The `agent` fallback: the model relays the question; the execution runs only when it sends back,
 * in `confirmation`, the digest of the request as it was shown under its idempotency key (one digest
 * per option when the person chooses). What runs is what was shown, once, though only the model says
 * that a person agreed.
 */
function agentRelay(
  call: CallState,
  ask: ConfirmationAsk,
  decided: (via: ConfirmationVia, outcome: ConfirmationOutcome, digest?: string) => void,
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
        envelope: mismatch(call, 'the confirmation sent is not the one shown for this request'),
      };
    }
    decided('agent', 'accepted', match.digest);
    return {
      kind: 'proceed',
      confirmation: view('agent', ask, match.option?.value ?? null, match.digest),
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
  return view('operator', ask, choice, confirmationDigest(tool, args, ask, choice));
}

function view(
  via: ConfirmationVia,
  ask: ConfirmationAsk,
  choice: string | null,
  digest: string,
): ConfirmationView {
  return { via, choice, facts: ask.facts ?? {}, digest };
}

function mismatch(call: CallState, why: string): OutcomeEnvelope {
  return buildEnvelope(call.tool, {
    status: 'failed',
    code: 'CONFIRMATION_MISMATCH',
    message: `Not executed: ${why}.`,
    resolution:
      'Call again without the earlier confirmation so that the user is asked about the request as it is now.',
  });
}

function declined(call: CallState, cancelled: boolean): OutcomeEnvelope {
  return buildEnvelope(call.tool, {
    status: 'rejected',
    code: 'CONFIRMATION_DECLINED',
    message: cancelled
      ? 'The user dismissed the confirmation; nothing was executed.'
      : 'The user declined; nothing was executed.',
    resolution: 'Tell the user nothing was done; call again only if they ask for it.',
  });
}
