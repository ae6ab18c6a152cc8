import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { DEFAULT_JSON_BOUNDS, jsonOverBounds } from './json-bounds.ts';
import {
  classifyMessage,
  INVALID_REQUEST,
  invalidMessageReply,
  type JsonRpcErrorReply,
  PARSE_ERROR,
} from './json-rpc-shape.ts';
import type { StdioMeter } from './request-metering.ts';

/** The longest line read as one message; the SDK's stdio transport has the same limit. */
const STDIO_MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * MCP's stdio transport (one JSON-RPC message per line) where every line gets its due: a line that is
 * not JSON is answered with -32700, a JSON value that is not a JSON-RPC message (a batch, a request
 * with an unusable id or unknown members, malformed params) with -32600/-32602 under its id when it
 * has one, and a line longer than the limit is skipped to its end and answered with -32700. The SDK's
 * own stdio transport drops such lines unanswered, so a client waiting for the reply would hang.
 * Whitespace-only lines are ignored. Everything else reaches the server as the SDK's would.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  /** The chunks of the line being read so far, and their length in bytes. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The line being read ran past the limit: its bytes are dropped up to its newline. */
  #skipping = false;
  #started = false;
  #closed = false;

  readonly #meter: StdioMeter | null;

  constructor(
    input: Readable,
    output: Writable,
    maxLineBytes = STDIO_MAX_LINE_BYTES,
    /** Charges each line to the connection's principal before it is answered; none: no rate. */
    meter: StdioMeter | null = null,
  ) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = maxLineBytes;
    this.#meter = meter;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('the stdio transport is already started');
    this.#started = true;
    this.#input.on('data', this.#onData);
    this.#input.on('error', this.#onError);
  }

  send(message: JSONRPCMessage | JsonRpcErrorReply): Promise<void> {
    this.#meter?.sent(message);
    return new Promise((resolve) => {
      if (this.#output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('error', this.#onError);
    // Pausing stdin lets the process exit; another reader of the stream keeps it flowing.
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
    this.#pending = [];
    this.#pendingBytes = 0;
    this.onclose?.();
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = data.indexOf(NEWLINE); end !== -1 && !this.#closed; end = data.indexOf(NEWLINE)) {
      const tail = data.subarray(0, end);
      data = data.subarray(end + 1);
      if (this.#skipping) {
        this.#skipping = false;
        continue;
      }
      const bytes = this.#pendingBytes + tail.length;
      const line = this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail], bytes);
      this.#pending = [];
      this.#pendingBytes = 0;
      if (bytes > this.#maxLineBytes) this.#overlong();
      else this.#line(line);
    }
    if (data.length === 0 || this.#skipping || this.#closed) return;
    if (this.#pendingBytes + data.length > this.#maxLineBytes) {
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#skipping = true;
      this.#overlong();
      return;
    }
    // Kept as the chunks arrive and joined once at the newline; a copy, because a subarray would pin
    // the whole chunk it came from while the rest of the line arrives.
    this.#pending.push(Buffer.from(data));
    this.#pendingBytes += data.length;
  };

  #line(bytes: Buffer): void {
    const text = bytes.toString('utf8');
    if (text.trim() === '') return;
    const over = jsonOverBounds(text, DEFAULT_JSON_BOUNDS);
    let value: unknown;
    if (over === null) {
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
    }
    // Every line is charged before it is answered, whoever answers it.
    const refused = this.#meter?.admit(value) ?? null;
    if (refused) {
      void this.send(refused);
      return;
    }
    if (over !== null) {
      void this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: INVALID_REQUEST, message: `Invalid Request: the line holds ${over}; it was skipped` },
      });
      return;
    }
    if (value === undefined) {
      this.#parseError('the line is not JSON');
      return;
    }
    const kind = classifyMessage(value);
    if (kind.kind === 'invalid') {
      void this.send(invalidMessageReply(kind));
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  /** A line past the limit: charged like any line, then answered -32700. */
  #overlong(): void {
    const refused = this.#meter?.admit(undefined) ?? null;
    if (refused) void this.send(refused);
    else this.#parseError(`a line is limited to ${this.#maxLineBytes} bytes`);
  }

  /** A line that is no message at all has no id to answer under: -32700 with a null id. */
  #parseError(reason: string): void {
    void this.send({
      jsonrpc: '2.0',
      id: null,
      error: { code: PARSE_ERROR, message: `Parse error: ${reason}` },
    });
  }
}
