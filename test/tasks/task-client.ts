import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, CallToolResultSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import type { OutcomeEnvelope } from 'toolgate';
import type { PrincipalRef, TestGateway } from 'toolgate/testing';

/**
 * A v1 SDK client (a real 2025-11-25 client, with the task API of that revision) connected to the
 * gateway as the principal. It holds no stream open (the gateway is stateless), so closing the gateway
 * is enough.
 */
export async function v1Client(
  gw: Pick<TestGateway, 'url' | 'tokenFor'>,
  principal: PrincipalRef,
): Promise<Client> {
  const token = await gw.tokenFor(principal);
  const client = new Client({ name: 'toolgate-v1-test', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gw.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** What one task-augmented call looked like through the SDK's own client task API. */
export interface TaskRun {
  readonly created: Task;
  readonly statuses: Task[];
  readonly result: CallToolResult | null;
  readonly error: Error | null;
}

/** Drives `client.experimental.tasks.callToolStream` to its end: created, each polled status, result. */
export async function runAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<TaskRun> {
  let created: Task | null = null;
  const statuses: Task[] = [];
  let result: CallToolResult | null = null;
  let error: Error | null = null;
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    task: { ttl: 60_000 },
    timeout: 30_000,
  });
  for await (const message of stream) {
    if (message.type === 'taskCreated') created = message.task;
    if (message.type === 'taskStatus') statuses.push(message.task);
    if (message.type === 'result') result = message.result as CallToolResult;
    if (message.type === 'error') error = message.error;
  }
  if (!created) throw new Error(`no task was created: ${error?.message}`);
  return { created, statuses, result, error };
}

/** Only creates the task (one task-augmented tools/call), without polling it. */
export async function createTask(client: Client, name: string, args: Record<string, unknown>): Promise<Task> {
  for await (const message of client.experimental.tasks.callToolStream(
    { name, arguments: args },
    CallToolResultSchema,
    { task: { ttl: 60_000 } },
  )) {
    if (message.type === 'taskCreated') return message.task;
    if (message.type === 'error') throw message.error;
  }
  throw new Error('the stream ended without a task');
}

export function envelopeOf(result: CallToolResult | null): OutcomeEnvelope {
  if (!result?.structuredContent) throw new Error('no structuredContent in the task result');
  return result.structuredContent as unknown as OutcomeEnvelope;
}
