import { Client as ModernClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { OutcomeEnvelope } from '../../src/contract/envelope.ts';
import { ADDRESS_SAMPLES } from '../../src/domains/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';

const ALICE = 'acme-customer-alice';
const MODERN = '2026-07-28';

interface Fixtures {
  orders: { all: { order_id: string; label: string; version: number; owner: string }[] };
}

/** What every client under test must do the same way against one running gateway. */
interface ClientUnderTest {
  readonly revision: string | undefined;
  listTools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<OutcomeEnvelope>;
  close(): Promise<void>;
}

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
  return {
    revision: client.getNegotiatedProtocolVersion(),
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: async (name, args) =>
      (await client.callTool({ name, arguments: args })).structuredContent as unknown as OutcomeEnvelope,
    close: () => client.close(),
  };
}

async function legacyClient(gw: StartedGateway): Promise<ClientUnderTest> {
  const client = await gw.client(ALICE);
  return {
    revision: (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: async (name, args) =>
      (await client.callTool({ name, arguments: args })).structuredContent as unknown as OutcomeEnvelope,
    close: () => client.close(),
  };
}

/**
 * One gateway, every client generation: the v2 SDK pinned to 2026-07-28 (no handshake), the v2 SDK
 * negotiating on its own, and the v1 SDK on the 2025-11-25 handshake. Each lists, reads, writes and
 * replays, and the store and the warehouse's ledger show one effect per key whatever the revision.
 */
describe('one /mcp endpoint serves 2026-07-28 and 2025-11-25 side by side', () => {
  let gw: StartedGateway;
  let fixtures: Fixtures;
  beforeAll(async () => {
    gw = await startGateway({ testApi: true });
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
    fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
  });

  const editable = () => fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
  const warehouseEffects = async (orderId: string) =>
    (
      (await gw.testApi('GET', `/test-api/effects?target=warehouse&ref=${orderId}`)).body as {
        effects: unknown[];
      }
    ).effects;

  const clients: [string, (gw: StartedGateway) => Promise<ClientUnderTest>, string][] = [
    ['the v2 client pinned to 2026-07-28', (g) => modernClient(g, { pin: MODERN }), MODERN],
    ['the v2 client in auto mode', (g) => modernClient(g, 'auto'), MODERN],
    ['the v1 client', legacyClient, '2025-11-25'],
  ];

  for (const [label, connect, revision] of clients) {
    test(`${label} lists, reads, writes once and replays`, async () => {
      const client = await connect(gw);
      try {
        expect(client.revision).toBe(revision);
        const names = await client.listTools();
        expect(names).toContain('orders_get');
        expect(names).toContain('orders_change_unshipped_address');
        const order = editable();
        const read = await client.call('orders_get', { order_id: order.order_id });
        expect(read).toMatchObject({ ok: true, status: 'completed', result: { order_id: order.order_id } });

        const args = {
          order_id: order.order_id,
          expected_order_version: order.version,
          new_address: ADDRESS_SAMPLES.clean_us,
          idempotency_key: `revision-${revision}-${label.length}-${Date.now().toString(36)}`,
        };
        const first = await client.call('orders_change_unshipped_address', args);
        expect(first).toMatchObject({ status: 'completed', replayed: false });
        const again = await client.call('orders_change_unshipped_address', args);
        expect(again).toMatchObject({
          status: 'completed',
          replayed: true,
          operation_id: first.operation_id,
        });
        expect(await gw.operation(first.operation_id!)).toMatchObject({ status: 'completed' });
        expect(await warehouseEffects(order.order_id)).toHaveLength(1);
      } finally {
        await client.close();
      }
    });
  }
});
