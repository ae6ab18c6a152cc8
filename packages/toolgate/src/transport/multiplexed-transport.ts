import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  MessageExtraInfo,
  RequestId,
  Transport,
} from '@modelcontextprotocol/server';

/** A JSON-RPC response or error, as it goes back to one HTTP client. */
export type JsonRpcReply = Exclude<JSONRPCMessage, JSONRPCRequest | JSONRPCNotification>;

/** The JSON text of one reply, under the client's own id. */
export type ReplyText = string;

/** A JSON-RPC error a direct handler throws (anything else becomes -32603). */
interface ThrownError {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly data?: unknown;
}

/**
 * A request waiting for its reply: how to answer it with an error instead, how to stop its handler,
 * and (for one the server answers) how the server's reply reaches it.
 */
interface Waiting {
  readonly answerError: (code: number, message: string) => void;
  readonly stop: (reason: string) => void;
  readonly serverReply?: (reply: JsonRpcReply) => void;
}

/** What ends a request's wait once it is answered: its deadline timer, disconnect listener and tracking. */
type Entry = Waiting & { readonly release: () => void };

/**
 * Lets one long-lived SDK `Server` answer many concurrent HTTP requests. Each incoming request is
 * renumbered with an id unique in this process (clients reuse ids freely), handed to the server,
 * and the server's reply is mapped back to the client's own id. A request is cancelled when its
 * HTTP client goes away, or when the same caller sends `notifications/cancelled` naming its id in
 * another POST; either way the server aborts the handler's signal.
 *
 * The hot methods skip the server (`direct`): the transport runs their handler itself with the same
 * bookkeeping (in-flight tracking per caller, cancellation, deadline) and answers its JSON text.
 *
 * Every request gets exactly one reply by construction: the server's or the direct handler's, a
 * cancellation error, or, if neither arrives before `replyDeadlineMs`, an internal error.
 */
export class MultiplexedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  readonly #replyDeadlineMs: number;
  #nextId = 1;
  readonly #waiting = new Map<number, Entry>();
  /** In-flight internal ids by caller and client id, for cancellations arriving in another POST. */
  readonly #inFlight = new Map<string, number[]>();

  constructor(options: { replyDeadlineMs: number }) {
    this.#replyDeadlineMs = options.replyDeadlineMs;
  }

  async start(): Promise<void> {}

  /** Replies reach their waiting HTTP request; server notifications have no stream to go to. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message) return;
    const id = message.id;
    if (typeof id !== 'number') return;
    this.#waiting.get(id)?.serverReply?.(message);
  }

  async close(): Promise<void> {
    for (const internalId of [...this.#waiting.keys()]) {
      this.#answerInstead(internalId, -32603, 'Internal error: the server is shutting down');
    }
    this.#waiting.clear();
    this.#inFlight.clear();
    this.onclose?.();
  }

  /**
   * Runs one request through the server; resolves with the reply under the client's id.
   * `caller` identifies the verified principal, so only it can cancel the request.
   */
  request(
    message: JSONRPCRequest,
    extra: MessageExtraInfo,
    caller: string,
    gone: AbortSignal,
  ): Promise<JsonRpcReply> {
    const clientId: RequestId = message.id;
    return new Promise((resolve) => {
      const internalId = this.#admit(message, caller, gone, {
        answerError: (code, text) =>
          resolve({ jsonrpc: '2.0', id: clientId, error: { code, message: text } }),
        stop: (reason) =>
          this.onmessage?.({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: internalId, reason },
          }),
        serverReply: (reply) => {
          if (this.#settle(internalId)) resolve({ ...reply, id: clientId } as JsonRpcReply);
        },
      });
      this.onmessage?.({ ...message, id: internalId }, extra);
    });
  }

  /**
   * Runs one request on the direct path: `handle` gets a signal that aborts when the HTTP client goes
   * away, the caller cancels the request or the deadline passes, and answers the JSON text of the result.
   * Resolves with the whole reply's JSON text under the client's id.
   */
  direct(
    message: JSONRPCRequest,
    caller: string,
    gone: AbortSignal,
    handle: (signal: AbortSignal) => Promise<string>,
  ): Promise<ReplyText> {
    const idText = JSON.stringify(message.id);
    const controller = new AbortController();
    return new Promise((resolve) => {
      const internalId = this.#admit(message, caller, gone, {
        answerError: (code, text) => resolve(errorText(idText, { code, message: text })),
        stop: (reason) => controller.abort(new Error(reason)),
      });
      let running: Promise<string>;
      try {
        running = handle(controller.signal);
      } catch (error) {
        running = Promise.reject(error);
      }
      running.then(
        (result) => {
          if (this.#settle(internalId)) resolve(`{"jsonrpc":"2.0","id":${idText},"result":${result}}`);
        },
        (error: ThrownError) => {
          if (!this.#settle(internalId)) return;
          const answer = jsonRpcError(error);
          if (answer.code === -32603)
            this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          resolve(errorText(idText, answer));
        },
      );
    });
  }

  /**
   * Registers a request as waiting: tracked for cancellation by its caller, answered by the deadline at
   * the latest, stopped when its HTTP client goes away. Answers the internal id.
   */
  #admit(message: JSONRPCRequest, caller: string, gone: AbortSignal, waiting: Waiting): number {
    const internalId = this.#nextId++;
    const flightKey = `${caller}\n${typeof message.id}:${message.id}`;
    this.#track(flightKey, internalId);
    const onGone = () => this.#cancel(internalId, 'the HTTP client disconnected');
    const deadline = setTimeout(() => {
      this.onerror?.(new Error(`no reply to ${message.method} within ${this.#replyDeadlineMs} ms`));
      this.#answerInstead(
        internalId,
        -32603,
        `Internal error: no answer within ${this.#replyDeadlineMs} ms; a write may have executed, check operations_get`,
      );
    }, this.#replyDeadlineMs);
    deadline.unref();
    this.#waiting.set(internalId, {
      ...waiting,
      release: () => {
        clearTimeout(deadline);
        gone.removeEventListener('abort', onGone);
        this.#untrack(flightKey, internalId);
      },
    });
    gone.addEventListener('abort', onGone, { once: true });
    return internalId;
  }

  /** Ends the wait of a request; false when it was already answered (cancelled or past its deadline). */
  #settle(internalId: number): boolean {
    const entry = this.#waiting.get(internalId);
    if (!entry) return false;
    this.#waiting.delete(internalId);
    entry.release();
    return true;
  }

  /** Client notifications; a cancellation is translated to the one request of this caller it names. */
  notify(message: JSONRPCNotification, extra: MessageExtraInfo, caller: string): void {
    if (message.method !== 'notifications/cancelled') {
      this.onmessage?.(message, extra);
      return;
    }
    const requestId = message.params?.requestId;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const candidates = this.#inFlight.get(`${caller}\n${typeof requestId}:${requestId}`);
    // Two in-flight requests of one caller under the same id are ambiguous; cancel neither.
    if (candidates?.length !== 1) return;
    const reason = message.params?.reason;
    this.#cancel(
      candidates[0]!,
      typeof reason === 'string' ? reason.slice(0, 200) : 'cancelled by the client',
    );
  }

  /**
   * The server sends no reply for a cancelled request, so the waiting HTTP request is answered here
   * (a client that cancelled ignores it; one that disconnected never sees it).
   */
  #cancel(internalId: number, reason: string): void {
    this.#answerInstead(internalId, -32000, `Request cancelled: ${reason}`, reason);
  }

  /** Aborts the server's handler (if it still runs) and answers the waiting HTTP request with an error. */
  #answerInstead(internalId: number, code: number, message: string, reason = message): void {
    const waiting = this.#waiting.get(internalId);
    if (!waiting || !this.#settle(internalId)) return;
    waiting.stop(reason);
    waiting.answerError(code, message);
  }

  #track(key: string, internalId: number): void {
    const ids = this.#inFlight.get(key);
    if (ids) ids.push(internalId);
    else this.#inFlight.set(key, [internalId]);
  }

  #untrack(key: string, internalId: number): void {
    const ids = this.#inFlight.get(key);
    if (!ids) return;
    const rest = ids.filter((id) => id !== internalId);
    if (rest.length === 0) this.#inFlight.delete(key);
    else this.#inFlight.set(key, rest);
  }
}

/** The JSON-RPC error of what a handler threw: its own code and message, or -32603. */
function jsonRpcError(error: ThrownError): { code: number; message: string; data?: unknown } {
  if (typeof error?.code !== 'number' || !Number.isSafeInteger(error.code)) {
    return { code: -32603, message: 'Internal error' };
  }
  const message = typeof error.message === 'string' ? error.message : 'Internal error';
  return error.data === undefined
    ? { code: error.code, message }
    : { code: error.code, message, data: error.data };
}

function errorText(idText: string, error: { code: number; message: string; data?: unknown }): ReplyText {
  return `{"jsonrpc":"2.0","id":${idText},"error":${JSON.stringify(error)}}`;
}
