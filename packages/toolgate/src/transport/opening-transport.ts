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
  readonly #ended: () => void;

  /**
   * `read` holds the messages read so far; the line transport goes on appending to it until start.
   * `ended` hears that the connection closed, whatever the server connected to it does with `onclose`.
   */
  constructor(line: StdioLineTransport, read: Message[], ended: () => void) {
    this.#line = line;
    this.#read = read;
    this.#ended = ended;
  }

  async start(): Promise<void> {
    this.#line.onclose = () => {
      this.onclose?.();
      this.#ended();
    };
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
