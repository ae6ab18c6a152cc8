import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReferenceStep, Scenario } from '../../src/scenario-schema.ts';
import { renderTemplates } from '../../src/template.ts';
import { pathMismatches } from '../../src/value-matcher.ts';

/** What the fake model replays for one scenario: recorded steps (by default its reference trajectory). */
export interface FakeScript {
  readonly steps: readonly ReferenceStep[];
  readonly finalAnswer: string;
}

interface ChatMessage {
  role: string;
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

type HistoryEvent = { kind: 'tool'; result: unknown } | { kind: 'reply'; text: string };

export interface FakeModelServer {
  readonly baseUrl: string;
  /** Chat completion requests served, for assertions. */
  readonly requests: number;
  /** The function tools of the latest request, as the model was given them. */
  readonly lastTools: readonly { function: { name: string; parameters: Record<string, unknown> } }[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat completions endpoint that replays a script per conversation, found by
 * the first user message. It is stateless: each request's message history says how far the script
 * has got, and earlier tool results fill the `{{steps.x...}}` templates of later calls. It tests the
 * agent loop and the scoring, not a model.
 */
export async function startFakeModel(
  scripts: ReadonlyMap<string, FakeScript>,
  values: Record<string, unknown>,
): Promise<FakeModelServer> {
  let requests = 0;
  let lastTools: FakeModelServer['lastTools'] = [];
  // One time for the whole server, so a replayed call renders `now_plus_hours` as the first one did.
  const now = Date.now();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', async () => {
      requests += 1;
      const request = JSON.parse(body) as { messages: ChatMessage[]; tools?: FakeModelServer['lastTools'] };
      lastTools = request.tools ?? [];
      const firstUser = request.messages.find((m) => m.role === 'user');
      const script = scripts.get(textOf(firstUser));
      const { message, waitMs } = script
        ? nextMessage(script, request.messages, values, now)
        : { message: { role: 'assistant', content: 'I do not know this task.\nCLAIM: refused' }, waitMs: 0 };
      // A poll waits its interval, as a model would between turns, so the world can settle meanwhile.
      if (waitMs > 0) await sleep(waitMs);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests}`,
          object: 'chat.completion',
          created: 0,
          model: 'fake-replay',
          choices: [{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    get lastTools() {
      return lastTools;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Replays the script against the history so far and answers with the next assistant message, and how
 * long to wait before sending it (an `until` step's interval when it polls again).
 */
function nextMessage(
  script: FakeScript,
  messages: ChatMessage[],
  values: Record<string, unknown>,
  now: number,
): { message: AssistantMessage; waitMs: number } {
  const history = historyOf(messages);
  const results: Record<string, unknown> = {};
  const scope = {
    values: { ...values, steps: results },
    key: (name: string) => `fake-model-key-${name}`.slice(0, 128),
    now: () => now,
  };
  let cursor = 0;
  for (const step of script.steps) {
    if ('ask' in step) {
      const event = history[cursor];
      if (event?.kind !== 'reply')
        return {
          message: { role: 'assistant', content: String(renderTemplates(step.ask, scope)) },
          waitMs: 0,
        };
      cursor += 1;
      if (step.id) results[step.id] = { reply: event.text };
      continue;
    }
    const attempts = step.until?.attempts ?? 1;
    let answered: unknown;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const event = history[cursor];
      if (event?.kind !== 'tool') {
        const waitMs = attempt > 0 ? (step.until?.interval_ms ?? 0) : 0;
        return { message: toolCall(step.tool, renderTemplates(step.args, scope), cursor), waitMs };
      }
      cursor += 1;
      answered = event.result;
      // Refused by the caller's rate limit: the same call again, once the advised wait is over.
      const wait = rateLimitWait(answered);
      if (wait !== null) {
        attempt -= 1;
        if (history[cursor]?.kind !== 'tool')
          return { message: toolCall(step.tool, renderTemplates(step.args, scope), cursor), waitMs: wait };
        continue;
      }
      if (
        !step.until ||
        pathMismatches(renderTemplates(step.until.fields, scope) as Record<string, unknown>, answered)
          .length === 0
      )
        break;
    }
    if (step.id) results[step.id] = answered;
  }
  return { message: { role: 'assistant', content: script.finalAnswer }, waitMs: 0 };
}

/** The wait a RATE_LIMITED answer advises, or null for any other answer. */
function rateLimitWait(answer: unknown): number | null {
  const envelope = answer as { code?: string; warnings?: { code: string; message: string }[] } | null;
  if (envelope?.code !== 'RATE_LIMITED') return null;
  const advised = Number(envelope.warnings?.find((w) => w.code === 'RETRY_AFTER_MS')?.message);
  return Number.isFinite(advised) ? advised : 1000;
}

type AssistantMessage = ReturnType<typeof toolCall> | { role: 'assistant'; content: string };

function toolCall(name: string, args: unknown, n: number) {
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
  };
}

function historyOf(messages: ChatMessage[]): HistoryEvent[] {
  const events: HistoryEvent[] = [];
  let seenFirstUser = false;
  for (const message of messages) {
    if (message.role === 'tool') events.push({ kind: 'tool', result: parseJson(textOf(message)) });
    if (message.role === 'user') {
      if (seenFirstUser) events.push({ kind: 'reply', text: textOf(message) });
      seenFirstUser = true;
    }
  }
  return events;
}

function textOf(message: ChatMessage | undefined): string {
  if (!message?.content) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => part.text ?? '').join('');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The default recording for a scenario: its reference trajectory and a final answer with its claim. */
export function referenceScript(scenario: Scenario): FakeScript {
  return {
    steps: scenario.reference.steps,
    finalAnswer: `${scenario.reference.answer ?? 'Here is what happened.'}\nCLAIM: ${scenario.reference.claim}`,
  };
}
