import type { IncomingHttpHeaders } from 'node:http';
import type { JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { INVALID_PARAMS } from './json-rpc-shape.ts';
import type { SerializedListings } from './serialized-listings.ts';
import { callJson } from './tool-results.ts';

/** A reply written around cached bytes (a listing page), with its size known without encoding it. */
export interface ReplyChunks {
  readonly id: RequestId;
  readonly chunks: readonly (string | Buffer)[];
  readonly bytes: number;
}

/**
 * How a hot method is answered: at once (`now`: a listing page, a ping, a refusal of its params), or by
 * running the gateway under the transport's cancellation and deadline (`run`: a tools/call, whose
 * promise answers the JSON text of its result).
 */
export type DirectHandler =
  | { readonly kind: 'now'; readonly reply: string | ReplyChunks }
  | { readonly kind: 'run'; readonly run: (signal: AbortSignal) => Promise<string> };

/**
 * The direct path: tools/call, tools/list and ping are answered without the SDK server, whose routing
 * parses every message several times over with schemas and validates every result again. The message
 * was already checked to be a well-formed JSON-RPC request (json-rpc-shape.ts); here only the method's
 * own params are checked, as the SDK's schemas define them, and a malformed one is answered -32602.
 * Everything else, and a tools/call made as a task, goes to the SDK server.
 */
export class DirectMethods {
  readonly #gateway: Gateway;
  readonly #listings: SerializedListings;

  constructor(gateway: Gateway, listings: SerializedListings) {
    this.#gateway = gateway;
    this.#listings = listings;
  }

  /** How to answer this request on the direct path, or null when the SDK server answers it. */
  handlerFor(
    message: JSONRPCRequest,
    principal: Principal,
    headers: IncomingHttpHeaders,
  ): DirectHandler | null {
    const params = message.params as Record<string, unknown> | undefined;
    switch (message.method) {
      case 'tools/call':
        return this.#toolsCall(message.id, params, principal, headers);
      case 'tools/list':
        return this.#toolsList(message.id, params, principal);
      case 'ping':
        return { kind: 'now', reply: `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{}}` };
      default:
        return null;
    }
  }

  #toolsCall(
    id: RequestId,
    params: Record<string, unknown> | undefined,
    principal: Principal,
    headers: IncomingHttpHeaders,
  ): DirectHandler | null {
    if (params?.task !== undefined) return null;
    if (params === undefined || typeof params.name !== 'string') {
      return paramsRefusal(id, 'tools/call needs params.name, the name of a tool (a string)');
    }
    const args = params.arguments;
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
      return paramsRefusal(id, 'params.arguments must be a JSON object of the tool arguments');
    }
    const call = {
      name: params.name,
      arguments: args,
      _meta: params._meta as Record<string, unknown> | undefined,
      traceparent: typeof headers.traceparent === 'string' ? headers.traceparent : undefined,
    };
    return { kind: 'run', run: (signal) => callJson(this.#gateway, call, principal, signal) };
  }

  #toolsList(
    id: RequestId,
    params: Record<string, unknown> | undefined,
    principal: Principal,
  ): DirectHandler {
    const page = this.#listings.resultFor(principal, params?.cursor);
    return page.ok ? listingReply(id, page.page) : paramsRefusal(id, page.reason);
  }
}

/** A reply around a cached listing page's bytes, written as they are. */
export function listingReply(id: RequestId, page: Buffer): DirectHandler {
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
  return {
    kind: 'now',
    reply: { id, chunks: [head, page, '}'], bytes: Buffer.byteLength(head) + page.length + 1 },
  };
}

/** -32602 for params a method cannot take, under the request's id. */
export function paramsRefusal(id: RequestId, reason: string): DirectHandler {
  const error = { code: INVALID_PARAMS, message: `Invalid params: ${reason}` };
  return { kind: 'now', reply: JSON.stringify({ jsonrpc: '2.0', id, error }) };
}
