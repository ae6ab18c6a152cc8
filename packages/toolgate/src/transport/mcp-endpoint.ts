import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type JSONRPCRequest,
  type MessageExtraInfo,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import { REPLY_LIMIT_BYTES } from '../contract/contract-bounds.ts';
import type { ParamHeader } from '../contract/param-headers.ts';
import type { BearerAuthenticator } from './bearer-authenticator.ts';
import type { DirectMethods, ReplyChunks } from './direct-methods.ts';
import { type Endpoint2026, webHeaders } from './endpoint-2026.ts';
import { sendJson, sendJsonRpcError } from './http-replies.ts';
import { type JsonBounds, jsonOverBounds } from './json-bounds.ts';
import {
  classifyMessage,
  INVALID_REQUEST,
  type IncomingMessageKind,
  invalidMessageReply,
  type JsonRpcErrorReply,
  PARSE_ERROR,
} from './json-rpc-shape.ts';
import type { JsonRpcReply, MultiplexedTransport } from './multiplexed-transport.ts';
import { HEADER_MISMATCH, standardHeaderDisagreement } from './param-header-check.ts';
import { authInfoFor } from './principal-auth-info.ts';
import { readBody } from './read-body.ts';
import {
  bodyWeight,
  DEFAULT_REQUEST_WEIGHT,
  type RequestMeter,
  servedToolCalls,
} from './request-metering.ts';
import { revisionOf } from './revision-of.ts';

const MAX_BATCH_SIZE = 100;
/** A batch may cost at most this much; a tools/list costs as much as a full listing weighs. */
const MAX_BATCH_COST = 100;
const TOOLS_LIST_COST = 25;
/** The most bytes one POST's answer may hold; replies past it are replaced with an error. */
export const DEFAULT_REPLY_LIMIT_BYTES = REPLY_LIMIT_BYTES;

export interface McpEndpointOptions {
  readonly transport: MultiplexedTransport;
  readonly authenticator: BearerAuthenticator;
  readonly bodyLimitBytes: number;
  readonly replyLimitBytes: number;
  /** Object keys and nesting one body may hold, checked before it is parsed. */
  readonly jsonBounds: JsonBounds;
  /** Charges each request to its principal's rate and reply bytes. */
  readonly meter: RequestMeter;
  /** Whether a tools/call names a served tool (whose call the gateway charges itself). */
  readonly servesTool: (name: string) => boolean;
  /** The `Mcp-Param-*` headers the version of a tool this principal is served declares. */
  readonly paramHeadersOf: (tool: string, principal: Principal) => readonly ParamHeader[];
  /** The methods answered without the SDK server (tools/call, tools/list, ping). */
  readonly direct: DirectMethods;
  /** The 2026-07-28 path, for every message the SDK does not classify as 2025-era traffic. */
  readonly endpoint2026: Endpoint2026;
}

/**
 * POST /mcp of the stateless Streamable HTTP transport: each POST carries JSON-RPC requests and is
 * answered with `application/json`; there is no session. A body carrying the 2026-07-28 envelope goes
 * to the 2026-07-28 path; 2025-era traffic (the `initialize` handshake) is answered here. The checks follow the
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
  const over = jsonOverBounds(body.text, options.jsonBounds);
  if (over !== null) {
    if (!options.meter.admit(res, auth.principal, DEFAULT_REQUEST_WEIGHT, 'json-rpc')) return;
    return sendJsonRpcError(
      res,
      400,
      INVALID_REQUEST,
      `Invalid Request: the body holds ${over}, over what one POST may carry; nothing was read from it`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    if (!options.meter.admit(res, auth.principal, DEFAULT_REQUEST_WEIGHT, 'json-rpc')) return;
    return sendJsonRpcError(res, 400, PARSE_ERROR, 'Parse error: invalid JSON');
  }
  // Every message counts against the caller's rate, before any is answered; tool calls are charged
  // by the gateway, which answers their refusal as a RATE_LIMITED envelope.
  if (!options.meter.admit(res, auth.principal, bodyWeight(parsed, options.servesTool), 'json-rpc')) return;
  const calls = servedToolCalls(parsed, options.servesTool);
  return options.meter.charging(auth.principal, calls, (principal) =>
    answerParsed(req, res, parsed, principal, options),
  );
}

/** Answers a POST whose body was read, parsed and admitted, as `principal`. */
async function answerParsed(
  req: IncomingMessage,
  res: ServerResponse,
  parsed: unknown,
  principal: Principal,
  options: McpEndpointOptions,
): Promise<void> {
  const revision = revisionOf(req, parsed);
  if (revision !== '2025-11-25') {
    const direct = revision === '2026-07-28' ? options.endpoint2026.directFor(req, parsed, principal) : null;
    if (direct === null) return options.endpoint2026.serve(req, res, parsed, principal, revision);
    const gone = new AbortController();
    const caller = `${principal.tenant}\n${principal.subject}`;
    const answer =
      direct.kind === 'now'
        ? Promise.resolve(direct.reply)
        : options.transport.direct(parsed as JSONRPCRequest, caller, gone.signal, direct.run);
    return deliver(res, gone, [answer], false, options.replyLimitBytes);
  }
  const batch = Array.isArray(parsed);
  const items: unknown[] = batch ? (parsed as unknown[]) : [parsed];
  if (items.length === 0 || items.length > MAX_BATCH_SIZE) {
    return sendJsonRpcError(res, 400, -32600, `Invalid Request: a batch holds 1-${MAX_BATCH_SIZE} messages`);
  }
  const messages = items.map(classifyMessage);
  const cost = messages.reduce((sum, m) => sum + costOf(m), 0);
  if (cost > MAX_BATCH_COST) {
    return sendJsonRpcError(
      res,
      400,
      INVALID_REQUEST,
      `Invalid Request: this batch costs ${cost}, over ${MAX_BATCH_COST} (a tools/list costs ${TOOLS_LIST_COST}, any other message 1)`,
    );
  }
  const only = messages[0]!;
  if (!batch && only.kind === 'invalid') {
    return sendJson(res, 400, invalidMessageReply(only));
  }
  // An initialize with bad params is still an initialize: it may not ride in a batch either.
  const initializes = items.filter(
    (item) =>
      typeof item === 'object' && item !== null && (item as { method?: unknown }).method === 'initialize',
  );
  if (initializes.length > 0 && messages.length > 1) {
    return sendJsonRpcError(res, 400, -32600, 'Invalid Request: initialize must be sent alone');
  }
  const disagreement = standardHeaderDisagreement(
    req.headers,
    messages.flatMap((m) => (m.kind === 'request' || m.kind === 'notification' ? [m.message] : [])),
    (tool) => options.paramHeadersOf(tool, principal),
  );
  if (disagreement) {
    const only =
      !batch && messages[0]!.kind === 'request'
        ? (messages[0] as { message: JSONRPCRequest }).message.id
        : null;
    return sendJson(res, 400, {
      jsonrpc: '2.0',
      id: only,
      error: {
        code: HEADER_MISMATCH,
        message: `Bad Request: the request headers and body disagree: ${disagreement.message}`,
        data: { mismatch: { header: disagreement.header, body: disagreement.message } },
      },
    });
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

  // What the SDK server's handlers are told about the request; the direct path does not need it.
  let extra: MessageExtraInfo | undefined;
  const extraInfo = (): MessageExtraInfo => {
    extra ??= {
      authInfo: authInfoFor(principal),
      request: new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/mcp'}`, {
        method: 'POST',
        headers: webHeaders(req),
      }),
    };
    return extra;
  };
  const caller = `${principal.tenant}\n${principal.subject}`;
  const gone = new AbortController();
  // Each reply as JSON (text, or bytes for a cached listing page), in message order. The hot methods
  // are answered on the direct path; everything else goes through the SDK server.
  const answers: Promise<Reply>[] = [];
  for (const m of messages) {
    if (m.kind === 'request') {
      const direct = options.direct.handlerFor(m.message, principal, req.headers);
      if (direct === null) {
        answers.push(options.transport.request(m.message, extraInfo(), caller, gone.signal).then(serialize));
      } else if (direct.kind === 'now') {
        answers.push(Promise.resolve(direct.reply));
      } else {
        answers.push(options.transport.direct(m.message, caller, gone.signal, direct.run));
      }
    } else if (m.kind === 'notification') {
      options.transport.notify(m.message, extraInfo(), caller);
    } else if (m.kind === 'invalid') {
      answers.push(Promise.resolve(serialize(invalidMessageReply(m))));
    }
  }
  if (answers.length === 0) {
    res.writeHead(202, { 'content-length': 0 });
    res.end();
    return;
  }
  return deliver(res, gone, answers, batch, options.replyLimitBytes);
}

/** Waits for every reply and writes them, unless the client went away (which aborts `gone`). */
async function deliver(
  res: ServerResponse,
  gone: AbortController,
  answers: Promise<Reply>[],
  batch: boolean,
  replyLimitBytes: number,
): Promise<void> {
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.once('close', onClose);
  const replies = withinByteBudget(await Promise.all(answers), replyLimitBytes);
  res.off('close', onClose);
  if (gone.signal.aborted) return;
  sendReplies(res, replies, batch);
}

/** A reply's JSON: text, or the chunks of a reply around a cached listing page. */
type Reply = string | ReplyChunks;
/** A reply with its size in bytes, counted once for the budget and the Content-Length. */
interface SizedReply {
  readonly reply: Reply;
  readonly bytes: number;
}

/** Writes the replies (one, or a batch as an array) with an exact length, in one write. */
function sendReplies(res: ServerResponse, replies: SizedReply[], batch: boolean): void {
  const chunks: (string | Buffer)[] = [];
  // The brackets and commas of a batch are one byte each.
  let length = batch ? replies.length + 1 : 0;
  if (batch) chunks.push('[');
  replies.forEach(({ reply, bytes }, i) => {
    if (batch && i > 0) chunks.push(',');
    if (typeof reply === 'string') chunks.push(reply);
    else chunks.push(...reply.chunks);
    length += bytes;
  });
  if (batch) chunks.push(']');
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': length });
  if (chunks.length === 1) {
    res.end(chunks[0]);
    return;
  }
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

const serialize = (reply: JsonRpcReply | JsonRpcErrorReply): string => JSON.stringify(reply);

function costOf(message: IncomingMessageKind): number {
  return message.kind === 'request' && message.message.method === 'tools/list' ? TOOLS_LIST_COST : 1;
}

/** Keeps replies in order until the budget is spent; each reply past it becomes a short error. */
function withinByteBudget(replies: Reply[], limit: number): SizedReply[] {
  let spent = 0;
  return replies.map((reply) => {
    const bytes = typeof reply === 'string' ? Buffer.byteLength(reply) : reply.bytes;
    spent += bytes;
    if (spent <= limit) return { reply, bytes };
    const id = typeof reply === 'string' ? (JSON.parse(reply) as { id: unknown }).id : reply.id;
    const omitted = serialize({
      jsonrpc: '2.0',
      id,
      error: { code: -32000, message: `Reply omitted: this POST's answer would exceed ${limit} bytes` },
    } as JsonRpcReply);
    return { reply: omitted, bytes: Buffer.byteLength(omitted) };
  });
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
