import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Which requests an armed fault applies to. */
export type RequestMatch = (request: { method: string; path: string }) => boolean;

/** drop_response: forwarded and answered, the answer lost; drop_request: never forwarded. */
export type ProxyFault = 'drop_response' | 'drop_request';

/** One request the proxy saw, and what it did with it. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  /** The service's status; null when it was not forwarded or the service gave no answer. */
  readonly upstreamStatus: number | null;
  readonly fault: ProxyFault | null;
}

interface ArmedFault {
  readonly fault: ProxyFault;
  remaining: number;
  readonly match: RequestMatch;
}

// Hop-by-hop headers belong to one connection; Node sets its own on the client side.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

/**
 * A loopback HTTP proxy between the gateway and the service that loses messages on purpose. It passes
 * requests through unless a fault is armed for the next matching requests: `drop_response` forwards
 * the request, waits for the service's complete answer (the effect is committed) and then closes the
 * client's socket instead of answering; `drop_request` closes it without forwarding. `refuse` stops
 * listening, so a new connection is refused exactly as if the service were down.
 */
export class FaultProxy {
  readonly seen: ProxiedRequest[] = [];
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #armed: ArmedFault[] = [];
  #upstreamPort: number;
  #port = 0;

  private constructor(upstreamPort: number) {
    this.#upstreamPort = upstreamPort;
    this.#server = createServer((req, res) => this.#forward(req, res));
    this.#server.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
  }

  /** Starts a proxy on a free loopback port in front of the service on `upstreamPort`. */
  static async start(upstreamPort: number): Promise<FaultProxy> {
    const proxy = new FaultProxy(upstreamPort);
    await proxy.#listen(0);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Points the proxy at a restarted service (which may have a new port). */
  retarget(upstreamPort: number): void {
    this.#upstreamPort = upstreamPort;
  }

  /** The next `times` matching requests are forwarded and answered, and their answer lost. */
  dropResponses(times: number, match: RequestMatch = () => true): void {
    this.#armed.push({ fault: 'drop_response', remaining: times, match });
  }

  /** The next `times` matching requests are lost on the way: the service never sees them. */
  dropRequests(times: number, match: RequestMatch = () => true): void {
    this.#armed.push({ fault: 'drop_request', remaining: times, match });
  }

  /** Disarms every fault still armed. */
  clearFaults(): void {
    this.#armed = [];
  }

  /** Stops listening and closes open connections: every new connection is refused until `accept`. */
  async refuse(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  /** Listens again on the same port after `refuse`. */
  async accept(): Promise<void> {
    await this.#listen(this.#port);
  }

  async close(): Promise<void> {
    if (this.#server.listening) await this.refuse();
  }

  #listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, '127.0.0.1', () => {
        this.#server.off('error', reject);
        this.#port = (this.#server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  #take(method: string, path: string): ProxyFault | null {
    const armed = this.#armed.find((a) => a.remaining > 0 && a.match({ method, path }));
    if (!armed) return null;
    armed.remaining -= 1;
    this.#armed = this.#armed.filter((a) => a.remaining > 0);
    return armed.fault;
  }

  #forward(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const fault = this.#take(method, path);
    const record = (upstreamStatus: number | null) => this.seen.push({ method, path, upstreamStatus, fault });
    if (fault === 'drop_request') {
      record(null);
      req.socket.destroy();
      return;
    }
    const upstream = httpRequest(
      { host: '127.0.0.1', port: this.#upstreamPort, method, path, headers: req.headers, agent: false },
      (answer) => {
        record(answer.statusCode ?? null);
        if (fault === 'drop_response') {
          // Read the whole answer first: the service has then committed and answered; only the reply is lost.
          answer.resume();
          answer.once('end', () => req.socket.destroy());
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
        );
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    // The proxy cannot know whether a broken upstream exchange applied anything, so neither may the client.
    upstream.once('error', () => {
      record(null);
      req.socket.destroy();
    });
    req.pipe(upstream);
  }
}
