import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export const MODERN = '2026-07-28';

/** What the scripted person answers: accept (with a choice), decline or cancel. */
export type PersonScript =
  | { readonly action: 'accept'; readonly choice?: string; readonly confirm?: boolean }
  | { readonly action: 'decline' | 'cancel' };

/** The questions a scripted person was asked. */
export interface AskedQuestion {
  readonly message: string;
  readonly requestedSchema: Record<string, unknown>;
}

/**
 * The official v2 client pinned to 2026-07-28, declaring form elicitation, whose `elicitation/create`
 * handler answers from a script (one answer per question, the last repeated) and records every
 * question. The client fulfils `input_required` itself and retries with the answer and the state.
 */
export async function confirmingClient(
  url: string,
  token: string,
  script: PersonScript[],
): Promise<{ client: ModernClient; asked: AskedQuestion[] }> {
  const asked: AskedQuestion[] = [];
  const client = new ModernClient(
    { name: 'consent-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: MODERN } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { message: string; requestedSchema: Record<string, unknown> };
    asked.push({ message: params.message, requestedSchema: params.requestedSchema });
    const answer = script[Math.min(asked.length - 1, script.length - 1)]!;
    if (answer.action !== 'accept') return { action: answer.action };
    return {
      action: 'accept',
      content: { confirm: answer.confirm ?? true, ...(answer.choice ? { choice: answer.choice } : {}) },
    };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return { client, asked };
}
