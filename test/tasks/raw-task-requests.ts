/** A JSON-RPC answer as it came over the wire: its HTTP status, its body parsed, and its exact text. */
export interface RawAnswer {
  readonly status: number;
  readonly text: string;
  readonly bytes: number;
  readonly body: {
    id?: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

/** One stateless 2025-11-25 request (no handshake: every POST stands alone), answered as it came. */
export async function legacyRequest(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return answerOf(response);
}

/**
 * One 2026-07-28 request carrying its envelope, `Mcp-Name` mirroring the task id when a header can hold
 * it (Node refuses request headers past 16 KB), answered as it came.
 */
export async function modernRawRequest(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown>,
): Promise<RawAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.taskId === 'string' && params.taskId.length <= 8_000
        ? { 'mcp-name': params.taskId }
        : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {
            extensions: { 'io.modelcontextprotocol/tasks': {} },
          },
          'io.modelcontextprotocol/clientInfo': { name: 'raw-task-requests', version: '1.0.0' },
        },
      },
    }),
  });
  return answerOf(response);
}

async function answerOf(response: Response): Promise<RawAnswer> {
  const text = await response.text();
  return {
    status: response.status,
    text,
    bytes: Buffer.byteLength(text),
    body: JSON.parse(text) as RawAnswer['body'],
  };
}
