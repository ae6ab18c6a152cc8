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
 * and the server's reply is mapped back to the client's own id. When the HTTP client goes away
 * first, the server is told the request was cancelled, which aborts the handler's signal.
 */
export class MultiplexedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  #nextId = 1;
  readonly #waiting = new Map<number, (reply: JsonRpcReply) => void>();

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
    this.#waiting.clear();
    this.onclose?.();
  }

  /** Runs one request through the server; resolves with the reply under the client's id. */
  request(message: JSONRPCRequest, extra: MessageExtraInfo, gone: AbortSignal): Promise<JsonRpcReply> {
    const internalId = this.#nextId++;
    const clientId: RequestId = message.id;
    return new Promise((resolve) => {
      const onGone = () => {
        if (!this.#waiting.delete(internalId)) return;
        this.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: internalId, reason: 'the HTTP client disconnected' },
        });
      };
      this.#waiting.set(internalId, (reply) => {
        gone.removeEventListener('abort', onGone);
        resolve({ ...reply, id: clientId } as JsonRpcReply);
      });
      gone.addEventListener('abort', onGone, { once: true });
      this.onmessage?.({ ...message, id: internalId }, extra);
    });
  }

  /** Client notifications other than cancellations (whose ids name another HTTP request). */
  notify(message: JSONRPCNotification, extra: MessageExtraInfo): void {
    if (message.method === 'notifications/cancelled') return;
    this.onmessage?.(message, extra);
  }
}
