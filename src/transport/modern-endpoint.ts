import type { IncomingMessage, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { classifyInboundRequest, createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { DirectHandler } from './direct-methods.ts';
import { sendJson } from './http-replies.ts';
import { ModernDirect } from './modern-direct.ts';
import { claimsModernEnvelope, MODERN_LISTING_FORM } from './modern-results.ts';
import { createModernServer, type ModernServerOptions } from './modern-server.ts';
import { HEADER_MISMATCH, type HeaderDisagreement, paramHeaderDisagreement } from './param-header-check.ts';
import { authInfoFor, principalFromAuthInfo } from './principal-auth-info.ts';
import { SerializedListings } from './serialized-listings.ts';

/**
 * Which leg answers a parsed POST body, by the SDK's own classification: `legacy` for 2025-era traffic
 * (the `initialize` handshake and everything without the per-request `_meta` envelope), `modern` for a
 * well-formed 2026-07-28 message, `refused` for one the modern leg refuses (a malformed envelope,
 * headers that contradict the body). A message that is not well-formed JSON-RPC cannot claim an
 * envelope either: the 2025 path answers it, message by message, under its id.
 */
export function legOf(req: IncomingMessage, body: unknown): 'legacy' | 'modern' | 'refused' {
  if (plainlyLegacy(req, body)) return 'legacy';
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: single(req.headers['mcp-protocol-version']),
    mcpMethodHeader: single(req.headers['mcp-method']),
    mcpNameHeader: single(req.headers['mcp-name']),
    body,
  });
  if (outcome.kind === 'legacy' || (outcome.kind === 'reject' && outcome.rung === 'jsonrpc-shape')) {
    return 'legacy';
  }
  return outcome.kind === 'modern' ? 'modern' : 'refused';
}

/** The revisions of the 2025 era the handshake path serves. */
const LEGACY_VERSIONS: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);

/**
 * 2025 traffic as the SDK would classify it, decided without running its classifier (about 6 µs a
 * request, see docs/performance.md): no standard 2026 header, a 2025 protocol version or none, and no
 * message claiming the envelope. Anything else is left to the SDK's classification.
 */
function plainlyLegacy(req: IncomingMessage, body: unknown): boolean {
  const { headers } = req;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return false;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && !(typeof version === 'string' && LEGACY_VERSIONS.has(version))) return false;
  return Array.isArray(body) ? !body.some(claimsModernEnvelope) : !claimsModernEnvelope(body);
}

/**
 * The 2026-07-28 leg of `/mcp`: the SDK's serving entry, strict (2025 traffic never reaches it), with
 * a fresh server per request. Identity was verified before the body was read; the SDK validates the
 * envelope, the standard headers against the body and the declared client capabilities, answers
 * `server/discover`, and stamps every result.
 */
export class ModernEndpoint {
  readonly #handler: McpHttpHandler;
  readonly #options: ModernServerOptions;
  readonly #direct: ModernDirect;

  constructor(options: ModernServerOptions, onerror: (error: Error) => void) {
    this.#options = options;
    const listings = new SerializedListings(options.gateway, options.toolsPageSize, MODERN_LISTING_FORM);
    this.#direct = new ModernDirect(options.gateway, listings, options.tasks !== undefined);
    this.#handler = createMcpHandler(
      (ctx) => {
        const principal = principalFromAuthInfo(ctx.authInfo);
        return createModernServer(options, () => principal);
      },
      { legacy: 'reject', onerror },
    );
  }

  /**
   * How the hot path answers a well-formed 2026-07-28 message without a per-request SDK server, or null
   * when `serve` must answer it (anything unusual, every refusal included).
   */
  directFor(req: IncomingMessage, body: unknown, principal: Principal): DirectHandler | null {
    if (this.#paramHeaderDisagreement(req, body) !== null) return null;
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
    leg: 'modern' | 'refused',
  ): Promise<void> {
    const disagreement = leg === 'modern' ? this.#paramHeaderDisagreement(req, body) : null;
    if (disagreement) {
      const error = {
        code: HEADER_MISMATCH,
        message: `Bad Request: the request headers and body disagree: ${disagreement.message}`,
        data: { mismatch: { header: disagreement.header, body: disagreement.message } },
      };
      return sendJson(res, 400, { jsonrpc: '2.0', id: (body as { id: unknown }).id, error });
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

  #paramHeaderDisagreement(req: IncomingMessage, body: unknown): HeaderDisagreement | null {
    const message = body as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
    if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') return null;
    const tool = this.#options.gateway.registry.get(message.params.name);
    if (!tool || tool.paramHeaders.length === 0) return null;
    return paramHeaderDisagreement(tool.paramHeaders, message.params.arguments, req.headers);
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
