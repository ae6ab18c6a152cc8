import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import {
  CHOICE_FIELD,
  CONFIRM_FIELD,
  type ConfirmationQuestion,
  type ConfirmationState,
  type ConsentChannel,
} from '../gateway/confirmation-types.ts';
import { principalFromAuthInfo } from './principal-auth-info.ts';

/** How long a person has to answer before the question must be asked again. */
export const CONFIRMATION_TTL_SECONDS = 600;
/** The key of the one input request a confirmation question makes. */
export const CONFIRMATION_REQUEST_KEY = 'confirmation';

/** The consent key and how long a question stays answerable. */
export interface ConfirmationSettings {
  readonly key: string | Uint8Array;
  readonly ttlSeconds?: number;
}

/** Whether the request's client capabilities (2026-07-28 `_meta`) declare form-mode elicitation. */
export function declaresFormElicitation(meta: unknown): boolean {
  const capabilities = (meta as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { elicitation?: unknown }
    | undefined;
  const elicitation = capabilities?.elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  const modes = elicitation as Record<string, unknown>;
  // An empty declaration means form mode; a declaration naming modes must name form.
  return !('url' in modes) || 'form' in modes;
}

/**
 * Confirmations over MCP 2026-07-28: a call needing a person's confirmation is answered
 * `input_required` with one form-mode elicitation, and its `requestState` (the SDK's HMAC codec,
 * with an expiry and a bind tag of the principal) carries which request and question were asked.
 * The SDK verifies the echoed state before the handler runs: tampered, expired or foreign state is
 * its frozen `-32602`, and nothing runs.
 */
export class ConfirmationElicitation {
  readonly #codec: RequestStateCodec<ConfirmationState>;

  /** `fixedPrincipal`: the one principal of a connection whose requests carry no auth info (stdio). */
  constructor(settings: ConfirmationSettings, fixedPrincipal: Principal | null = null) {
    this.#codec = createRequestStateCodec<ConfirmationState>({
      key: settings.key,
      ttlSeconds: settings.ttlSeconds ?? CONFIRMATION_TTL_SECONDS,
      bind: (ctx) => bindingOf(principalFromAuthInfo(ctx.http?.authInfo) ?? fixedPrincipal),
    });
  }

  /** The hook for the server's `requestState.verify`. */
  readonly verify = (state: string, ctx: ServerContext): Promise<ConfirmationState> =>
    this.#codec.verify(state, ctx);

  /** What the gateway may do with this request's client: ask, and the answer it carries back. */
  channelOf(ctx: ServerContext): ConsentChannel {
    if (!declaresFormElicitation(ctx.mcpReq.envelope)) return { canAsk: false };
    const state = ctx.mcpReq.requestState<ConfirmationState>();
    const response = inputResponse(ctx.mcpReq.inputResponses, CONFIRMATION_REQUEST_KEY);
    if (typeof state !== 'object' || state === null || response.kind !== 'elicit') {
      return { canAsk: true };
    }
    return {
      canAsk: true,
      answer: {
        state,
        action: response.action,
        ...(response.content ? { content: response.content } : {}),
      },
    };
  }

  /** The `input_required` answer that puts the question to the person. */
  async ask(question: ConfirmationQuestion, ctx: ServerContext): Promise<InputRequiredResult> {
    const { ask } = question;
    const properties: Record<string, Record<string, unknown>> = {
      [CONFIRM_FIELD]: {
        type: 'boolean',
        title: 'Run exactly this request',
        description: 'Confirm to run the request as shown; anything else runs nothing.',
        default: false,
      },
    };
    const required = [CONFIRM_FIELD];
    if (ask.choice) {
      properties[CHOICE_FIELD] = {
        type: 'string',
        title: ask.choice.title,
        oneOf: ask.choice.options.map((o) => ({ const: o.value, title: o.title })),
      };
      required.push(CHOICE_FIELD);
    }
    return inputRequired({
      inputRequests: {
        [CONFIRMATION_REQUEST_KEY]: inputRequired.elicit({
          message: questionText(ask.message, ask.details),
          requestedSchema: { type: 'object', properties, required } as never,
        }),
      },
      requestState: await this.#codec.mint(question.state, ctx),
    });
  }
}

/**
 * The whole principal a question was asked of: another token of the same subject with another actor,
 * scope, group or application is another caller, and cannot answer it.
 */
function bindingOf(principal: Principal | null): string {
  if (!principal) return 'tools/call\0';
  return `tools/call\0${JSON.stringify([
    principal.tenant,
    principal.subject,
    principal.actor,
    [...principal.scopes].sort(),
    principal.groups ?? [],
    principal.application ?? null,
  ])}`;
}

function questionText(message: string, details: Readonly<Record<string, unknown>> | undefined): string {
  const lines = Object.entries(details ?? {}).map(
    ([name, value]) => `- ${name}: ${value === null ? 'none' : String(value)}`,
  );
  return lines.length ? `${message}\n${lines.join('\n')}` : message;
}
