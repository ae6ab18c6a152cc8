import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';

export const MODERN = '2026-07-28';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_INFO = { name: 'task-extension-test', version: '1.0.0' };
const WITH_TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

/** A JSON-RPC answer as it came over the wire, with its HTTP status. */
export interface WireAnswer {
  readonly status: number;
  readonly body: {
    id?: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

/**
 * One 2026-07-28 request as a client writes it: the per-request envelope in `_meta` (declaring the Tasks
 * extension unless `capabilities` says otherwise) and the standard headers, Mcp-Name mirroring the
 * tool name or task id.
 */
export async function modernRequest(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
  options: { capabilities?: Record<string, unknown>; id?: number | string } = {},
): Promise<WireAnswer> {
  const name = typeof params.name === 'string' ? params.name : params.taskId;
  const body = {
    jsonrpc: '2.0',
    id: options.id ?? 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? WITH_TASKS,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      },
    },
  };
  return postModern(url, token, body, {
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
  });
}

/** One POST of a JSON-RPC body as a 2026-07-28 client sends it, with any further headers. */
export async function postModern(
  url: string,
  token: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<WireAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as WireAnswer['body'] };
}

/**
 * A task-enabled session of the official Tasks requester (`@modelcontextprotocol/ext-tasks`) over the
 * v2 client pinned to 2026-07-28. The requester frames its own extension requests; they are sent as
 * plain 2026-07-28 POSTs with the same bearer token.
 */
export async function taskSession(
  url: string,
  token: string,
): Promise<{ session: TaskEnabledSession; close: () => Promise<void> }> {
  const client = new Client(CLIENT_INFO, {
    capabilities: WITH_TASKS,
    versionNegotiation: { mode: { pin: MODERN } },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  const session = createTaskSessionFromClient(client, {
    endpointId: url,
    rawDispatch: async (request) => {
      const { method, params, id } = request as {
        method: string;
        params: Record<string, unknown>;
        id: number;
      };
      const { _meta: _, ...rest } = params ?? {};
      const answer = await modernRequest(url, token, method, rest, { id });
      return answer.body as never;
    },
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: WITH_TASKS },
  });
  return {
    session,
    close: async () => {
      await session.close();
      await client.close();
    },
  };
}
