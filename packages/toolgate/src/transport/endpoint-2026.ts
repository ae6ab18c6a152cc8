import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import { servedVersion } from '../contract/tool-versions.ts';
import { oversizedTaskParam } from '../tasks/task-request-checks.ts';
import { Direct2026 } from './direct-2026.ts';
import type { DirectHandler } from './direct-methods.ts';
import { sendJson } from './http-replies.ts';
import { HEADER_MISMATCH, type HeaderDisagreement, paramHeaderDisagreement } from './param-header-check.ts';
import { authInfoFor, principalFromAuthInfo } from './principal-auth-info.ts';
import { LISTING_FORM_2026 } from './results-2026.ts';
import { SerializedListings } from './serialized-listings.ts';
import { createToolServer, type ToolServerOptions } from './tool-server.ts';

/**
 * The 2026-07-28 path of `/mcp`: the SDK's serving entry, strict (2025 traffic never reaches it), with
 * a fresh server per request. Identity was verified before the body was read; the SDK validates the
 * envelope, the standard headers against the body and the declared client capabilities, answers
 * `server/discover`, and stamps every result.
 */
export class Endpoint2026 {
  readonly #handler: McpHttpHandler;
  readonly #options: ToolServerOptions;
  readonly #direct: Direct2026;

  constructor(options: ToolServerOptions, onerror: (error: Error) => void) {
    this.#options = options;
    const listings = new SerializedListings(options.gateway, options.toolsPageSize, LISTING_FORM_2026);
    this.#direct = new Direct2026(
      options.gateway,
      listings,
      options.tasks !== undefined,
      options.confirmations !== undefined,
    );
    this.#handler = createMcpHandler(
      (ctx) => {
        const principal = principalFromAuthInfo(ctx.authInfo);
        return createToolServer(options, () => principal, ctx.era);
      },
      { legacy: 'reject', onerror },
    );
  }

  /**
   * How the hot path answers a well-formed 2026-07-28 message without a per-request SDK server, or null
   * when `serve` must answer it (anything unusual, every refusal included).
   */
  directFor(req: IncomingMessage, body: unknown, principal: Principal): DirectHandler | null {
    if (this.#paramHeaderDisagreement(req, body, principal) !== null) return null;
    return this.#direct.handlerFor(body, principal, req.headers);
  }

  /**
   * Answers one POST whose JSON body was already read and parsed. A well-formed tools/call whose
   * `Mcp-Param-*` headers disagree with its arguments is refused here, before any tool code runs.
   */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    principal: Principal,
    revision: '2026-07-28' | 'refused',
  ): Promise<void> {
    const disagreement =
      revision === '2026-07-28' ? this.#paramHeaderDisagreement(req, body, principal) : null;
    if (disagreement) {
      const error = {
        code: HEADER_MISMATCH,
        message: `Bad Request: the request headers and body disagree: ${disagreement.message}`,
        data: { mismatch: { header: disagreement.header, body: disagreement.message } },
      };
      return sendJson(res, 400, { jsonrpc: '2.0', id: (body as { id: unknown }).id, error });
    }
    // Refused here, before the SDK's header checks would quote the whole value back, twice.
    const oversized = oversizedTaskParam(body);
    if (oversized) {
      const error = { code: oversized.code, message: oversized.message };
      return sendJson(res, 200, { jsonrpc: '2.0', id: (body as { id: unknown }).id, error });
    }
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

  #paramHeaderDisagreement(
    req: IncomingMessage,
    body: unknown,
    principal: Principal,
  ): HeaderDisagreement | null {
    const message = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
    if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') return null;
    const tool = servedVersion(this.#options.gateway.registry, message.params.name, principal);
    if (!tool || tool.paramHeaders.length === 0) return null;
    return paramHeaderDisagreement(tool.paramHeaders, message.params.arguments, req.headers);
  }
}

/** The Node request's headers as web `Headers`, for the SDK's handler context. */
export function webHeaders(req: IncomingMessage): Headers {
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
