import type { Principal } from '../auth/principal.ts';
import { isApproverScope } from './approver-scopes.ts';
import { canonicalJson, sha256Hex } from './canonical-json.ts';
import { defineErrorCodes } from './error-catalog.ts';
import type { ToolOutcome } from './outcome.ts';

/**
 * What a call that needs a person's confirmation does when the client cannot put the question to its
 * user (a 2025-era client, or one that declares no elicitation):
 * - `refuse`: `failed` / `CONFIRMATION_UNAVAILABLE`, nothing executed;
 * - `agent`: the model relays the question; the answer carries a digest of the request as shown, and
 *   only an execution that sends that digest back (input field `confirmation`) runs;
 * - `operator`: the key is reserved and the operation parked (`in_progress`) until a signed-in approver
 *   other than the requester confirms it in the operator console; then it runs once, as the requester's
 *   call. A refusal or the expiry of the question settles it `rejected`.
 */
export const CONFIRM_FALLBACKS = ['refuse', 'agent', 'operator'] as const;
export type ConfirmFallback = (typeof CONFIRM_FALLBACKS)[number];

/** The input field an `agent`-fallback tool declares: the digest its confirmation answer carried. */
export const CONFIRMATION_FIELD = 'confirmation';

/** A value the person sees beside the question. */
export type ConfirmationDetail = string | number | boolean | null;

/** One way the person may answer, when they must choose (e.g. the suggested address or the original). */
export interface ConfirmationOption {
  readonly value: string;
  readonly title: string;
}

/**
 * What the person is asked, built by the tool from the validated request and what the domain found,
 * never from text the model wrote: the question, the facts that matter (what changes, where, when,
 * the risk, who approves), and any choice they must make.
 */
export interface ConfirmationAsk {
  readonly message: string;
  readonly details?: Readonly<Record<string, ConfirmationDetail>>;
  readonly choice?: {
    readonly title: string;
    readonly options: readonly ConfirmationOption[];
  };
  /**
   * What the domain found that the execution relies on (e.g. the suggested address). Bound into the
   * confirmation like the rest: if the domain finds something else when the confirmed request runs,
   * it does not run. The handler reads it back from `ctx.confirmation.facts`.
   */
  readonly facts?: Readonly<Record<string, unknown>>;
}

/** What the `ask` hook sees besides the validated input. */
export interface ConfirmContext {
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly correlationId: string;
}

/**
 * The `ask` hook's way to stop the call before anything is reserved, when what it must find out
 * cannot be found out (e.g. the address service is down): a refusal that changed nothing, with a code
 * the tool declares.
 */
export interface ConfirmRefusal {
  readonly refuse: ToolOutcome<never>;
}

export interface ConfirmSpec<I> {
  /**
   * When a person must confirm, in words, for the contract (e.g. "executions in production"); `always`
   * when every execution asks.
   */
  readonly when: string;
  /** For clients that cannot ask their user (default `refuse`). */
  readonly fallback?: ConfirmFallback;
  /**
   * With fallback `operator`: the approver scope (declared by the tool's module, e.g. `payouts:approve`)
   * an approver needs besides `operations:confirm` to confirm or refuse this tool's parked calls.
   */
  readonly approverScope?: string;
  /**
   * What the person is asked for this validated input, or null when this input needs no confirmation.
   * Runs before anything is reserved or executed, again when the confirmed request arrives (the two must
   * agree), and never for a dry run. It may read the domain's systems; it must change nothing.
   */
  readonly ask: (input: I, ctx: ConfirmContext) => Promise<ConfirmationAsk | ConfirmRefusal | null>;
}

/** How a confirmation was given: the client's own dialog, relayed by the agent, or an approver. */
export type ConfirmationVia = 'client' | 'agent' | 'operator';

/** The confirmation a handler executes under (`ctx.confirmation`); null when none was needed. */
export interface ConfirmationView {
  readonly via: ConfirmationVia;
  /** The option the person chose, when the question offered a choice. */
  readonly choice: string | null;
  readonly facts: Readonly<Record<string, unknown>>;
  /** The digest of what was confirmed (the request, the question and the choice). */
  readonly digest: string;
}

/** Codes of the tools that declare `confirm` (defineTool adds them to their contract). */
export const confirmationErrors = defineErrorCodes({
  CONFIRMATION_REQUIRED: {
    category: 'confirmation',
    retryable: false,
    description:
      'A person must confirm this request before it runs; nothing was executed. Show the user the message and details as given; only if they agree, call again with the same arguments and the confirmation the resolution names.',
  },
  CONFIRMATION_DECLINED: {
    category: 'confirmation',
    retryable: false,
    status: 'rejected',
    description:
      'The person declined or dismissed the confirmation; nothing was executed. Do not call again unless they ask for it.',
  },
  CONFIRMATION_MISMATCH: {
    category: 'confirmation',
    retryable: false,
    status: 'failed',
    description:
      'The request differs from what the person confirmed (other arguments, another choice, or the domain now finds something else); nothing was executed. Ask again with the request as it is now.',
  },
  CONFIRMATION_PENDING: {
    category: 'confirmation',
    retryable: true,
    status: 'in_progress',
    description:
      'The request waits for an approver to confirm it in the operator console; nothing was executed yet. Tell the user an approver must confirm it, then poll operations_get with the operation_id; do not start a new operation.',
  },
  CONFIRMATION_EXPIRED: {
    category: 'confirmation',
    retryable: false,
    status: 'rejected',
    description:
      'No approver confirmed the request before its confirmation expired; nothing was executed. Make a new request with a new idempotency_key only if the user still wants it.',
  },
  CONFIRMATION_UNAVAILABLE: {
    category: 'confirmation',
    retryable: false,
    status: 'failed',
    description:
      'This request needs a person to confirm it through the client, and this client cannot ask its user; nothing was executed. Use a client on MCP 2026-07-28 that supports elicitation.',
  },
});

/** The arguments as confirmed: without the idempotency key and the relayed digest. */
export function confirmedArguments(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { idempotency_key: _key, [CONFIRMATION_FIELD]: _digest, ...rest } = args;
  return rest;
}

/**
 * The digest of one confirmable request: the tool, its arguments (as confirmed), what the person is
 * shown, what the domain found, the option chosen and, when given, the idempotency key the request
 * runs under (so one confirmation runs one operation). 24 hex characters (96 bits): short enough to
 * relay, long enough that no other request matches it.
 */
export function confirmationDigest(
  tool: string,
  args: Readonly<Record<string, unknown>>,
  ask: ConfirmationAsk,
  choice: string | null,
  key: string | null = null,
): string {
  return sha256Hex(
    canonicalJson({
      tool,
      args: confirmedArguments(args),
      message: ask.message,
      details: ask.details ?? {},
      options: ask.choice?.options.map((o) => o.value) ?? [],
      facts: ask.facts ?? {},
      choice,
      ...(key !== null ? { key } : {}),
    }),
  ).slice(0, 24);
}

/** Why a confirm spec cannot be served (empty when it can). */
export function confirmSpecProblems(spec: ConfirmSpec<unknown>, inputFields: readonly string[]): string[] {
  const problems: string[] = [];
  if (spec.when.trim().length === 0) problems.push('confirm.when must say when a person confirms');
  const fallback = spec.fallback ?? 'refuse';
  if (!CONFIRM_FALLBACKS.includes(fallback)) {
    problems.push(`confirm.fallback ${String(fallback)} is not one of ${CONFIRM_FALLBACKS.join(', ')}`);
  }
  if (fallback === 'agent' && !inputFields.includes(CONFIRMATION_FIELD)) {
    problems.push(`confirm.fallback agent needs an optional string input field ${CONFIRMATION_FIELD}`);
  }
  if (typeof spec.ask !== 'function') problems.push('confirm.ask must be a function');
  if (spec.approverScope !== undefined) {
    if (fallback !== 'operator') problems.push('confirm.approverScope needs fallback operator');
    if (!isApproverScope(spec.approverScope)) {
      problems.push(
        `confirm.approverScope ${spec.approverScope} must be a scope of the module such as payouts:approve`,
      );
    }
  }
  return problems;
}
