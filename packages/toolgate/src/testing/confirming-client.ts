import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CHOICE_FIELD, CONFIRM_FIELD } from '../gateway/confirmation-types.ts';
import { REVISION_2026 } from '../transport/results-2026.ts';

/**
 * One answer of the scripted person: accept (naming the option when the question offers a choice;
 * `confirm: false` leaves the box unticked, which the gateway takes as a decline), decline or cancel.
 */
export type ScriptedAnswer =
  | { readonly action: 'accept'; readonly choice?: string; readonly confirm?: boolean }
  | { readonly action: 'decline' | 'cancel' };

/** One question the person was asked: the text they read and the form they answered. */
export interface AskedQuestion {
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

export interface ConfirmingClient {
  /** Connected to the gateway with the token; close it when the test is done. */
  readonly client: Client;
  /** Every question asked so far, in order (the list grows as the client is asked). */
  readonly asked: readonly AskedQuestion[];
}

/**
 * A client whose user answers confirmations from a script: the official v2 client pinned to MCP
 * 2026-07-28, declaring form-mode elicitation, over HTTP with the bearer token. Its `elicitation/create`
 * handler answers question n with `script[n]` (the last answer repeats) and records every question;
 * the client itself fulfils `input_required` and retries with the answer and the request state, so
 * `client.callTool` resolves to the result of the confirmed (or declined) call.
 */
export async function confirmingClient(
  url: string,
  token: string,
  script: readonly ScriptedAnswer[],
): Promise<ConfirmingClient> {
  if (script.length === 0) throw new Error('confirmingClient needs at least one scripted answer');
  const asked: AskedQuestion[] = [];
  const client = new Client(
    { name: 'toolgate-confirming-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: REVISION_2026 } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string; requestedSchema: Record<string, unknown> };
    asked.push({ message: params.message, requestedSchema: params.requestedSchema });
    const answer = script[Math.min(asked.length, script.length) - 1]!;
    if (answer.action !== 'accept') return { action: answer.action };
    return {
      action: 'accept',
      content: {
        [CONFIRM_FIELD]: answer.confirm ?? true,
        ...(answer.choice !== undefined ? { [CHOICE_FIELD]: answer.choice } : {}),
      },
    };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return { client, asked };
}
