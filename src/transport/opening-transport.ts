import type { StdioLineTransport } from './stdio-line-transport.ts';

type Message = Parameters<StdioLineTransport['send']>[0];

/**
 * One stdio connection handed to the server its opening message chose: the messages read while the
 * choice was made (the opening one first) are delivered first, then everything that follows on the
 * line transport, which is already started. Sending, closing and errors pass straight through.
 */
export class OpeningTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: Message) => void;

  readonly #line: StdioLineTransport;
  readonly #read: Message[];

  /** `read` holds the messages read so far; the line transport goes on appending to it until start. */
  constructor(line: StdioLineTransport, read: Message[]) {
    this.#line = line;
    this.#read = read;
  }

  async start(): Promise<void> {
    this.#line.onclose = () => this.onclose?.();
    this.#line.onerror = (error) => this.onerror?.(error);
    const read = this.#read.splice(0);
    // Delivered once the server has finished connecting, in order, before anything read later.
    queueMicrotask(() => {
      for (const message of read) this.onmessage?.(message);
      this.#line.onmessage = (message) => this.onmessage?.(message);
      for (const message of this.#read.splice(0)) this.onmessage?.(message);
    });
  }

  send(message: Message): Promise<void> {
    return this.#line.send(message);
  }

  close(): Promise<void> {
    return this.#line.close();
  }
}
