import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { type App, createApp, loadOrCreateDevKeys, mintToken, startHttpTransport } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newProbeLedger, probeReader, probeTools } from '../gateway/probe-tools.ts';
import { testToolsDomain } from '../support/start-gateway.ts';

describe('--local-principal-token', () => {
  const ledger = newProbeLedger();
  let dataDir: string;
  let app: App;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-local-'));
    app = await createApp({
      dataDir,
      logger: pino({ level: 'silent' }),
      modules: [testToolsDomain(probeTools(ledger), [probeReader])],
    });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The port is not known before binding, so a fixed free-ish port is used for the audience. */
  const tokenFor = async (port: number, ttlSeconds = 600) =>
    mintToken(
      await loadOrCreateDevKeys(dataDir),
      { sub: 'local-user', tenant: 'tenant_probe', actor: 'operator', scopes: ['probe:read'] },
      { audience: `http://127.0.0.1:${port}/mcp`, ttlSeconds },
    );
  const freePort = async () => {
    const probe = await startHttpTransport(app, { port: 0, keys: { kind: 'dev', dataDir } });
    await probe.close();
    return probe.port;
  };

  test('header-less requests act as the verified local principal', async () => {
    const port = await freePort();
    const http = await startHttpTransport(app, {
      port,
      keys: { kind: 'dev', dataDir },
      localPrincipalToken: await tokenFor(port),
    });
    try {
      const response = await fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'probe_echo', arguments: { text: 'hi' } },
        }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()).result.structuredContent).toMatchObject({ status: 'completed' });
      expect(ledger.executions.probe_echo).toBe(1);
      const forged = await fetch(http.url, {
        method: 'POST',
        headers: { authorization: 'Bearer forged', 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
      expect(forged.status).toBe(401);
    } finally {
      await http.close();
    }
  });

  test('is refused when the server is not bound to loopback', async () => {
    await expect(
      startHttpTransport(app, {
        host: '0.0.0.0',
        port: 0,
        keys: { kind: 'dev', dataDir },
        localPrincipalToken: 'x',
      }),
    ).rejects.toThrow(/not a loopback address/);
  });

  test('is refused at start when the token does not verify', async () => {
    const port = await freePort();
    await expect(
      startHttpTransport(app, {
        port,
        keys: { kind: 'dev', dataDir },
        localPrincipalToken: await tokenFor(port, -600),
      }),
    ).rejects.toThrow(/not accepted: token expired/);
  });
});
