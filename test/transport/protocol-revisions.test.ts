import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { v1Client } from '../tasks/task-client.ts';
import { asClientUnderTest, type ClientUnderTest, roundTrip } from './client-round-trip.ts';

const ALICE = 'acme-customer-alice';
const MODERN = '2026-07-28';

async function modernClient(gw: StartedGateway, mode: 'auto' | { pin: string }): Promise<ClientUnderTest> {
  const token = await gw.tokenFor(ALICE);
  const client = new ModernClient(
    { name: 'revision-test', version: '1.0.0' },
    { versionNegotiation: { mode } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gw.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return asClientUnderTest(client, client.getNegotiatedProtocolVersion());
}

async function legacyClient(gw: StartedGateway): Promise<ClientUnderTest> {
  const client = await v1Client(gw, ALICE);
  return asClientUnderTest(
    client,
    (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion,
  );
}

/** The test gateway's own client (the v2 SDK), speaking the revision asked for. */
async function testingClient(
  gw: StartedGateway,
  revision: '2025-11-25' | '2026-07-28',
): Promise<ClientUnderTest> {
  const client = await gw.client(ALICE, { revision });
  return asClientUnderTest(client, client.getNegotiatedProtocolVersion());
}

/**
 * One gateway, every client generation: the v2 SDK pinned to 2026-07-28 (no handshake), the v2 SDK
 * negotiating on its own, the v1 SDK on the 2025-11-25 handshake, and the test gateway's client in
 * either revision. Each lists, reads, writes and
 * replays, and the store and the warehouse's ledger show one effect per key whatever the revision.
 */
describe('one /mcp endpoint serves 2026-07-28 and 2025-11-25 side by side', () => {
  let gw: StartedGateway;
  beforeAll(async () => {
    gw = await startGateway({ testApi: true });
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
  });

  const clients: [string, (gw: StartedGateway) => Promise<ClientUnderTest>, string][] = [
    ['the v2 client pinned to 2026-07-28', (g) => modernClient(g, { pin: MODERN }), MODERN],
    ['the v2 client in auto mode', (g) => modernClient(g, 'auto'), MODERN],
    ['the v1 client', legacyClient, '2025-11-25'],
    ["toolgate/testing's client on 2025-11-25", (g) => testingClient(g, '2025-11-25'), '2025-11-25'],
    ["toolgate/testing's client on 2026-07-28", (g) => testingClient(g, MODERN), MODERN],
  ];

  for (const [label, connect, revision] of clients) {
    test(`${label} lists, reads, writes once and replays`, async () => {
      const client = await connect(gw);
      try {
        expect(client.revision).toBe(revision);
        await roundTrip(gw, client, `revision-${revision}-${label.length}`);
      } finally {
        await client.close();
      }
    });
  }
});
