import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  MessageExtraInfo,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC response or error, as it goes back to one HTTP client. */
export type JsonRpcReply = Exclude<JSONRPCMessage, JSONRPCRequest | JSONRPCNotification>;

/**
 * Lets one long-lived SDK `Server` answer many concurrent HTTP requests. Each incoming request is
 * renumbered with an id unique in this process (clients reuse ids freely), handed to the server,
 * and the server's reply is mapped back to the client's own id. A request is cancelled when its
 * HTTP client goes away, or when the same caller sends `notifications/cancelled` naming its id in
 * another POST; either way the server aborts the handler's signal.
 *
 * Every request gets exactly one reply by construction: the server's, a cancellation error, or, if
 * neither arrives before `replyDeadlineMs` (the server dropped it), an internal error.
 */
export class MultiplexedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  readonly #replyDeadlineMs: number;
  #nextId = 1;
  readonly #waiting = new Map<number, (reply: JsonRpcReply) => void>();
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
    const deliver = this.#waiting.get(id);
    if (!deliver) return;
    this.#waiting.delete(id);
    deliver(message);
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
    const internalId = this.#nextId++;
    const clientId: RequestId = message.id;
    const flightKey = `${caller}\n${typeof clientId}:${clientId}`;
    this.#track(flightKey, internalId);
    return new Promise((resolve) => {
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
      this.#waiting.set(internalId, (reply) => {
        clearTimeout(deadline);
        gone.removeEventListener('abort', onGone);
        this.#untrack(flightKey, internalId);
        resolve({ ...reply, id: clientId } as JsonRpcReply);
      });
      gone.addEventListener('abort', onGone, { once: true });
      this.onmessage?.({ ...message, id: internalId }, extra);
    });
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
    const deliver = this.#waiting.get(internalId);
    if (!deliver) return;
    this.#waiting.delete(internalId);
    this.onmessage?.({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: internalId, reason },
    });
    deliver({ jsonrpc: '2.0', id: internalId, error: { code, message } });
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
