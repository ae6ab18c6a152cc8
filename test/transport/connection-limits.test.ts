import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { probeReader } from '../gateway/probe-tools.ts';
import type { StartGatewayOptions } from '../support/start-gateway.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';

/** Writes headers and then drips a body; resolves with how long the server kept the socket open. */
function dripBody(url: string, headers: string): Promise<{ closedAfterMs: number; answer: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket = connect(Number(port), hostname, () => {
      socket.write(`POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${headers}`);
    });
    const drip = setInterval(() => socket.write('x'), 100);
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
  });
}

/** Issue 14.2: a client cannot hold a connection open by dripping its request. */
describe('HTTP connection limits', () => {
  let gw: StartedGateway;

  beforeAll(async () => {
    gw = await startGateway({
      modules: [],
      principals: [{ ...probeReader }],
      http: {
        connectionLimits: { headersTimeoutMs: 600, requestTimeoutMs: 800, maxConnections: 4 },
      } as StartGatewayOptions['http'],
    });
  });
  afterAll(() => gw.close());

  test('a body dripped slower than the request timeout is cut off with 408', async () => {
    const result = await dripBody(
      gw.url,
      `authorization: Bearer ${await gw.tokenFor('probe_reader')}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`,
    );
    expect(result.closedAfterMs).toBeLessThan(3_000);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  test('headers dripped slower than the headers timeout are cut off', async () => {
    const result = await dripBody(gw.url, 'x-slow: ');
    expect(result.closedAfterMs).toBeLessThan(3_000);
  });

  test('connections past the cap are refused while the others stay open', async () => {
    const { hostname, port } = new URL(gw.url);
    const open = await Promise.all(
      Array.from(
        { length: 4 },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(Number(port), hostname, () => resolve(socket));
          }),
      ),
    );
    const refused = await new Promise<boolean>((resolve) => {
      const extra = connect(Number(port), hostname);
      extra.on('close', () => resolve(true));
      extra.on('error', () => resolve(true));
      setTimeout(() => resolve(false), 400);
    });
    for (const socket of open) socket.destroy();
    expect(refused).toBe(true);
  });
});
