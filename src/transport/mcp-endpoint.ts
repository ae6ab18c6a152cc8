import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCRequest, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { BearerAuthenticator } from './bearer-authenticator.ts';
import { sendJson, sendJsonRpcError } from './http-replies.ts';
import { classifyMessage } from './json-rpc-shape.ts';
import type { JsonRpcReply, MultiplexedTransport } from './multiplexed-transport.ts';
import { authInfoFor } from './principal-auth-info.ts';
import { readBody } from './read-body.ts';

const MAX_BATCH_SIZE = 100;

export interface McpEndpointOptions {
  readonly transport: MultiplexedTransport;
  readonly authenticator: BearerAuthenticator;
  readonly bodyLimitBytes: number;
}

/**
 * POST /mcp of the stateless Streamable HTTP transport: each POST carries JSON-RPC requests and is
 * answered with `application/json`; there is no session and no SSE stream. The checks follow the
 * SDK's own transport, in the same order, with identity checked before the body is read.
 */
export async function serveMcpPost(
  req: IncomingMessage,
  res: ServerResponse,
  options: McpEndpointOptions,
): Promise<void> {
  const auth = await options.authenticator.authenticate(req);
  if (!auth.ok) return options.authenticator.refuse(res, auth);
  if (!acceptsJson(req.headers.accept)) {
    return sendJsonRpcError(res, 406, -32000, 'Not Acceptable: the client must accept application/json');
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return sendJsonRpcError(
      res,
      415,
      -32000,
      'Unsupported Media Type: Content-Type must be application/json',
    );
  }
  const body = await readBody(req, options.bodyLimitBytes);
  if (!body.ok) {
    if (body.reason === 'aborted') return;
    return sendJsonRpcError(res, 413, -32000, `Request body exceeds ${options.bodyLimitBytes} bytes`, {
      connection: 'close',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return sendJsonRpcError(res, 400, -32700, 'Parse error: invalid JSON');
  }
  const batch = Array.isArray(parsed);
  const items: unknown[] = batch ? (parsed as unknown[]) : [parsed];
  if (items.length === 0 || items.length > MAX_BATCH_SIZE) {
    return sendJsonRpcError(res, 400, -32600, `Invalid Request: a batch holds 1-${MAX_BATCH_SIZE} messages`);
  }
  const messages = items.map(classifyMessage);
  if (messages.some((m) => m.kind === 'invalid')) {
    return sendJsonRpcError(res, 400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message');
  }
  const initializes = messages.filter((m) => m.kind === 'request' && m.message.method === 'initialize');
  if (initializes.length > 0 && messages.length > 1) {
    return sendJsonRpcError(res, 400, -32600, 'Invalid Request: initialize must be sent alone');
  }
  const version = req.headers['mcp-protocol-version'];
  if (
    initializes.length === 0 &&
    typeof version === 'string' &&
    !SUPPORTED_PROTOCOL_VERSIONS.includes(version)
  ) {
    return sendJsonRpcError(
      res,
      400,
      -32000,
      `Bad Request: unsupported MCP-Protocol-Version ${version.slice(0, 40)} (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
    );
  }

  const extra: MessageExtraInfo = { authInfo: authInfoFor(auth.principal) };
  const caller = `${auth.principal.tenant}\n${auth.principal.subject}`;
  const requests: JSONRPCRequest[] = [];
  for (const m of messages) {
    if (m.kind === 'request') requests.push(m.message);
    else if (m.kind === 'notification') options.transport.notify(m.message, extra, caller);
  }
  if (requests.length === 0) {
    res.writeHead(202, { 'content-length': 0 });
    res.end();
    return;
  }
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.once('close', onClose);
  const replies: JsonRpcReply[] = await Promise.all(
    requests.map((request) => options.transport.request(request, extra, caller, gone.signal)),
  );
  res.off('close', onClose);
  if (gone.signal.aborted) return;
  sendJson(res, 200, batch ? replies : replies[0]);
}

/** Lenient like the SDK's clients expect: no Accept header, wildcards and JSON all accept our answer. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  const lower = accept.toLowerCase();
  return lower.includes('application/json') || lower.includes('*/*') || lower.includes('application/*');
}

function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const essence = header.split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json';
}
