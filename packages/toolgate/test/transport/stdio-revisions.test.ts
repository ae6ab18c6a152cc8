import { PassThrough } from 'node:stream';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { simulationOf } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import {
  asClientUnderTest,
  type ClientUnderTest,
  roundTrip,
} from '../../../../test/transport/client-round-trip.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { type StdioTransport, startStdioTransport } from '../../src/transport/stdio-server.ts';
import { StreamClientTransport } from './stream-client-transport.ts';

const MODERN = '2026-07-28';

/**
 * stdio serves both revisions too: the opening message pins the connection. The server side is the
 * gateway's own stdio transport over in-process pipes, on the same app (store, world, ledger) as an
 * HTTP gateway whose test API gives the fixtures and the effects.
 */
describe('stdio serves 2026-07-28 and 2025-11-25, chosen by the opening message', () => {
  let gw: StartedGateway;
  let alice: Principal;
  const sessions: StdioTransport[] = [];
  beforeAll(async () => {
    gw = await startGateway({ testApi: true });
    const demo = simulationOf(gw.app).principals.find((p) => p.name === 'acme-customer-alice')!;
    alice = { subject: demo.subject, tenant: demo.tenant, actor: demo.actor, scopes: new Set(demo.scopes) };
  });
  afterAll(async () => {
    for (const session of sessions) await session.close();
    await gw.close();
  });
  beforeEach(async () => {
    expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
  });

  async function pipes(): Promise<StreamClientTransport> {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    sessions.push(await startStdioTransport(gw.app, alice, { input: toServer, output: fromServer }));
    return new StreamClientTransport(fromServer, toServer);
  }

  async function modern(mode: 'auto' | { pin: string }): Promise<ClientUnderTest> {
    const client = new ModernClient(
      { name: 'stdio-revisions', version: '1.0.0' },
      { versionNegotiation: { mode } },
    );
    await client.connect((await pipes()) as never);
    return asClientUnderTest(client, client.getNegotiatedProtocolVersion());
  }

  async function legacy(): Promise<ClientUnderTest> {
    const client = new LegacyClient({ name: 'stdio-revisions', version: '1.0.0' });
    const transport = await pipes();
    await client.connect(transport);
    // The revision the handshake settled on, as the client hands it to its transport.
    return asClientUnderTest(client, transport.protocolVersion);
  }

  const cases: [string, () => Promise<ClientUnderTest>, string][] = [
    ['the v2 client pinned to 2026-07-28', () => modern({ pin: MODERN }), MODERN],
    ['the v2 client in auto mode', () => modern('auto'), MODERN],
    ['the v1 client', legacy, '2025-11-25'],
  ];
  for (const [label, connect, revision] of cases) {
    test(`${label} lists, reads, writes once and replays`, async () => {
      const client = await connect();
      try {
        expect(client.revision).toBe(revision);
        await roundTrip(gw, client, `stdio-${label.length}`);
      } finally {
        await client.close();
      }
    });
  }
});
