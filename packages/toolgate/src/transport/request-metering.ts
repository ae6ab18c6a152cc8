import type { ServerResponse } from 'node:http';
import type { Principal } from '../auth/principal.ts';
import type { PrincipalRateLimiter, RateRefusal } from '../gateway/rate-limit-layer.ts';
import { sendJson } from './http-replies.ts';
import type { JsonRpcErrorReply } from './json-rpc-shape.ts';

/**
 * What one request costs against its principal's rate, by method: a listing costs more than a ping.
 * tools/call of a served tool costs nothing here because the gateway takes its token (and answers its
 * refusal as a `RATE_LIMITED` envelope); every other authenticated request is charged by the transport.
 */
export const REQUEST_WEIGHTS: Readonly<Record<string, number>> = {
  'tools/list': 4,
  'tasks/list': 2,
  'tasks/get': 2,
  'tasks/result': 2,
  'tasks/cancel': 2,
  'resources/list': 2,
  'resources/templates/list': 2,
  'resources/read': 2,
  'prompts/list': 2,
  'prompts/get': 2,
  'server/discover': 2,
  initialize: 2,
};
/** Any method not named above, notifications included. */
export const DEFAULT_REQUEST_WEIGHT = 1;
/** One call of the operator API (and of the console, which reads through it): a database query. */
export const ROUTE_REQUEST_WEIGHT = 2;

/**
 * The weight of a parsed POST body: each message of a batch counts. `servesTool` tells a tools/call
 * the gateway will charge from one it refuses unknown (charged here like any other message).
 */
export function bodyWeight(body: unknown, servesTool: (name: string) => boolean): number {
  const messages = Array.isArray(body) ? body : [body];
  let weight = 0;
  for (const message of messages) {
    if (message === null || typeof message !== 'object') continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown; task?: unknown } };
    if (typeof method !== 'string') continue;
    if (method === 'tools/call' && typeof params?.name === 'string' && servesTool(params.name)) continue;
    weight += REQUEST_WEIGHTS[method] ?? DEFAULT_REQUEST_WEIGHT;
  }
  return weight;
}

/** How many of a parsed body's messages are tool calls of served tools: the ones the gateway charges. */
export function servedToolCalls(body: unknown, servesTool: (name: string) => boolean): number {
  const messages = Array.isArray(body) ? body : [body];
  let calls = 0;
  for (const message of messages) {
    if (message === null || typeof message !== 'object') continue;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (method === 'tools/call' && typeof params?.name === 'string' && servesTool(params.name)) calls += 1;
  }
  return calls;
}

/**
 * Charges authenticated requests to their principal's rate and reply-byte budget at the HTTP layer,
 * before they are routed: a refused request is answered 429 with `Retry-After` and reaches nothing.
 */
export class RequestMeter {
  readonly #limiter: PrincipalRateLimiter | undefined;

  constructor(limiter: PrincipalRateLimiter | undefined) {
    this.#limiter = limiter;
  }

  /**
   * Takes the request's weight (and checks the reply budget); true when it may go on, otherwise the
   * 429 was sent. A weight of 0 (tool calls only, which the gateway charges and refuses in their
   * envelopes) takes nothing here. Once admitted, the bytes of its answer are counted when written.
   */
  admit(res: ServerResponse, principal: Principal, weight: number, form: 'json-rpc' | 'json'): boolean {
    const limiter = this.#limiter;
    if (!limiter) return true;
    const refusal =
      limiter.payOwed(principal) ?? (weight > 0 ? limiter.takeRequest(principal, weight) : null);
    if (refusal) {
      refuse(res, refusal, form);
      return false;
    }
    // What the socket took while this answer was written, headers included: an HTTP/1.1 connection
    // writes one answer at a time, and a reply's headers need not be kept where getHeader finds them.
    const socket = res.socket;
    if (!socket) return true;
    const before = socket.bytesWritten;
    res.once('finish', () => limiter.chargeReplyBytes(principal, socket.bytesWritten - before));
    return true;
  }

  /**
   * Runs `answer` for a request carrying `calls` tool calls of served tools, which the gateway charges
   * as it reaches them, and owes afterwards the ones it never reached: a call refused on the way (a
   * forged confirmation state, headers that disagree, malformed params) is charged exactly once too.
   * `answer` is given the principal to hand on.
   */
  async charging(principal: Principal, calls: number, answer: (principal: Principal) => Promise<void>) {
    const limiter = this.#limiter;
    if (!limiter || calls === 0) return answer(principal);
    const tallied = limiter.tally(principal);
    try {
      await answer(tallied);
    } finally {
      limiter.settle(tallied, calls);
    }
  }
}

function refuse(res: ServerResponse, { waitMs, reason }: RateRefusal, form: 'json-rpc' | 'json'): void {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const message = `Too many requests from this caller (${reason}); nothing was done. Retry after ${seconds} s.`;
  const headers = { 'retry-after': String(seconds) };
  if (form === 'json-rpc') {
    sendJson(
      res,
      429,
      { jsonrpc: '2.0', id: null, error: { code: -32000, message, data: { retry_after_ms: waitMs } } },
      headers,
    );
  } else {
    sendJson(res, 429, { error: 'rate_limited', message, retry_after_ms: waitMs }, headers);
  }
}

/**
 * The rate of a stdio connection's one principal, charged line by line as HTTP charges message by
 * message: every line by its weight before it is answered (a line that is no message weighs 1), and a
 * tool call the gateway never reached (its server refused it on the way) owed once it is answered.
 * A line over the rate is answered with a JSON-RPC error under its id and reaches nothing.
 */
export class StdioMeter {
  readonly #limiter: PrincipalRateLimiter;
  readonly #principal: Principal;
  readonly #servesTool: (name: string) => boolean;
  /** What the gateway charged for the connection's tool calls (every principal it was handed counts). */
  readonly #tally = { charged: 0 };
  /** Ids of tool calls of served tools read and not yet answered. */
  readonly #calls = new Set<string | number>();
  #answered = 0;
  #owed = 0;

  constructor(limiter: PrincipalRateLimiter, principal: Principal, servesTool: (name: string) => boolean) {
    this.#limiter = limiter;
    this.#principal = principal;
    this.#servesTool = servesTool;
  }

  /** The principal to hand the gateway for one request: a copy whose tool calls count here. */
  tallied(principal: Principal): Principal {
    return this.#limiter.tally(principal, this.#tally);
  }

  /** A line read (its JSON, undefined when it is none): null when it may go on, else the reply instead. */
  admit(value: unknown): JsonRpcErrorReply | null {
    this.#oweUncharged();
    const weight = Math.max(value === undefined ? 1 : 0, bodyWeight(value, this.#servesTool));
    const refusal =
      this.#limiter.payOwed(this.#principal) ??
      (weight > 0 ? this.#limiter.takeRequest(this.#principal, weight) : null);
    const id = idOf(value);
    if (refusal) {
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: -32000,
          message: `Too many requests (${refusal.reason}); nothing was done. Retry after ${refusal.waitMs} ms.`,
        },
      };
    }
    if (id !== null && servedToolCalls(value, this.#servesTool) === 1 && !Array.isArray(value))
      this.#calls.add(id);
    return null;
  }

  /** A reply written: an answered tool call is one the gateway should have charged by now. */
  sent(message: unknown): void {
    // Only an answer settles a call: a request the server sends (an elicitation) may reuse its id.
    if ((message as { method?: unknown }).method !== undefined) return;
    const id = idOf(message);
    if (id === null || !this.#calls.delete(id)) return;
    this.#answered += 1;
    this.#oweUncharged();
  }

  /** Answered tool calls beyond what the gateway charged are owed (in-flight charges only lower this). */
  #oweUncharged(): void {
    const uncharged = this.#answered - this.#tally.charged;
    if (uncharged <= this.#owed) return;
    this.#limiter.owe(this.#principal, uncharged - this.#owed);
    this.#owed = uncharged;
  }
}

function idOf(value: unknown): string | number | null {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}
