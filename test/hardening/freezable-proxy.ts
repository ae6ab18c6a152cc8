import { createServer, type Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can be frozen: while frozen, bytes in both directions and
 * new connections are held, as with a SIGSTOPped server, without touching the shared server itself.
 */
export interface FreezableProxy {
  readonly url: string;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(targetUrl: string): Promise<FreezableProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let frozen = false;
  const held: (() => void)[] = [];
  const server: Server = createServer((client) => {
    sockets.add(client);
    const connectUpstream = () => {
      const upstream = new Socket();
      sockets.add(upstream);
      upstream.connect(Number(target.port || 5432), target.hostname);
      const pipe = (from: Socket, to: Socket) => {
        from.on('data', (chunk) => {
          if (!frozen) {
            to.write(chunk);
            return;
          }
          from.pause();
          held.push(() => {
            to.write(chunk);
            from.resume();
          });
        });
        from.on('close', () => to.destroy());
        from.on('error', () => to.destroy());
      };
      pipe(client, upstream);
      pipe(upstream, client);
    };
    if (frozen) held.push(connectUpstream);
    else connectUpstream();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const release of held.splice(0)) release();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
