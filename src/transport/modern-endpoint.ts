import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyInboundRequest, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import { createModernServer, type ModernServerOptions } from './modern-server.ts';
import { authInfoFor, principalFromAuthInfo } from './principal-auth-info.ts';

/**
 * Whether a parsed POST body is 2025-era traffic (the `initialize` handshake and everything without the
 * per-request `_meta` envelope), by the SDK's own classification. A message that is not well-formed
 * JSON-RPC cannot claim an envelope either: the 2025 path answers it, message by message, under its
 * id. Everything else, including the refusals of a malformed envelope or of headers that contradict
 * the body, is the modern leg's to answer.
 */
export function isLegacyMessage(req: IncomingMessage, body: unknown): boolean {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: single(req.headers['mcp-protocol-version']),
    mcpMethodHeader: single(req.headers['mcp-method']),
    mcpNameHeader: single(req.headers['mcp-name']),
    body,
  });
  return outcome.kind === 'legacy' || (outcome.kind === 'reject' && outcome.rung === 'jsonrpc-shape');
}

/**
 * The 2026-07-28 leg of `/mcp`: the SDK's serving entry, strict (2025 traffic never reaches it), with
 * a fresh server per request. Identity was verified before the body was read; the SDK validates the
 * envelope, the standard headers against the body and the declared client capabilities, answers
 * `server/discover`, and stamps every result.
 */
export class ModernEndpoint {
  readonly #handler: McpHttpHandler;

  constructor(options: ModernServerOptions, onerror: (error: Error) => void) {
    this.#handler = createMcpHandler(
      (ctx) => createModernServer(options, principalFromAuthInfo(ctx.authInfo)),
      { legacy: 'reject', onerror },
    );
  }

  /** Answers one POST whose JSON body was already read and parsed. */
  async serve(req: IncomingMessage, res: ServerResponse, body: unknown, principal: Principal): Promise<void> {
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) gone.abort();
    };
    res.once('close', onClose);
    try {
      const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/mcp'}`, {
        method: 'POST',
        headers: webHeaders(req),
        signal: gone.signal,
      });
      const response = await this.#handler.fetch(request, {
        authInfo: authInfoFor(principal),
        parsedBody: body,
      });
      await writeResponse(res, response);
    } finally {
      res.off('close', onClose);
    }
  }

  close(): Promise<void> {
    return this.#handler.close();
  }
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/** Writes a web `Response` to the Node response: a JSON body in one write, a stream as it comes. */
async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body === null) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  if (!(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    const bytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...headers, 'content-length': String(bytes.length) });
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
