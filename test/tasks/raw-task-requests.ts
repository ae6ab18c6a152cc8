import { MODERN, TASKS_EXTENSION, type WireAnswer } from './extension-client.ts';

/** A JSON-RPC answer as it came over the wire, with its exact text and size. */
export interface RawAnswer extends WireAnswer {
  readonly text: string;
  readonly bytes: number;
}

/** One stateless 2025-11-25 request (no handshake: every POST stands alone), answered as it came. */
export function legacyRequest(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
): Promise<RawAnswer> {
  return postRaw(url, token, { 'mcp-protocol-version': '2025-11-25' }, { method, params });
}

/**
 * One 2026-07-28 request carrying its envelope, `Mcp-Name` mirroring the task id when a header can hold
 * it (Node refuses request headers past 16 KB), answered as it came.
 */
export function modernRawRequest(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
): Promise<RawAnswer> {
  const headers = {
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(typeof params.taskId === 'string' && params.taskId.length <= 8_000
      ? { 'mcp-name': params.taskId }
      : {}),
  };
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'raw-task-requests', version: '1.0.0' },
  };
  return postRaw(url, token, headers, { method, params: { ...params, _meta } });
}

async function postRaw(
  url: string,
  token: string,
  headers: Record<string, string>,
  request: { method: string; params: Record<string, unknown> },
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...request }),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    bytes: Buffer.byteLength(text),
    body: JSON.parse(text) as RawAnswer['body'],
  };
}
