import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server treats one request. */
export type ScriptedAnswer =
  /** Answers `body` as JSON (or `raw` as is); `close` stops the server right after answering. */
  | {
      status: number;
      body?: unknown;
      raw?: string;
      headers?: Record<string, string>;
      delayMs?: number;
      close?: boolean;
    }
  /** Reads the request and never answers. */
  | { hang: true }
  /** Destroys the socket once the request has arrived (req.socket.destroy()). */
  | { reset: true }
  /** Sends the head and part of a longer body, then destroys the socket. */
  | { partial: true };

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as received. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** performance.now() when the request arrived. */
  readonly at: number;
}

/** A real HTTP service on 127.0.0.1 that answers from a script and records what it received. */
export interface BackendServer {
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** Queues answers for the next requests; once the queue is empty, `fallback` answers. */
  script(...answers: ScriptedAnswer[]): void;
  fallback: ScriptedAnswer;
  close(): Promise<void>;
}

function answer(res: ServerResponse, scripted: Extract<ScriptedAnswer, { status: number }>): void {
  const text = scripted.raw ?? (scripted.body === undefined ? '' : JSON.stringify(scripted.body));
  const type = scripted.raw === undefined && text !== '' ? { 'content-type': 'application/json' } : {};
  res.writeHead(scripted.status, { ...type, ...scripted.headers });
  res.end(text);
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts a server on 127.0.0.1, port 0 (or `port`, to bring a refused address back to life). */
export async function startBackendServer(port = 0): Promise<BackendServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { method = '', url = '', headers } = req;
      requests.push({
        method,
        url,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
      });
      const scripted = queue.shift() ?? backend.fallback;
      if ('hang' in scripted) return;
      if ('reset' in scripted) {
        req.socket.destroy();
        return;
      }
      if ('partial' in scripted) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"state":');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      setTimeout(() => {
        answer(res, scripted);
        if (scripted.close) void stop(server);
      }, scripted.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  const backend: BackendServer = {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    requests,
    script: (...answers) => queue.push(...answers),
    fallback: { status: 200, body: {} },
    close: () => stop(server),
  };
  return backend;
}

/** A base URL where nothing listens: connecting is refused. */
export async function refusedUrl(): Promise<{ url: string; port: number }> {
  const server = await startBackendServer();
  await server.close();
  return { url: server.url, port: server.port };
}
