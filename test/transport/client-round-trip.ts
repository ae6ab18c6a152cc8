import type { OutcomeEnvelope } from 'toolgate';
import { expect } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import type { StartedGateway } from '../support/start-gateway.ts';

/** What every client under test must do the same way, whatever its SDK, revision or transport. */
export interface ClientUnderTest {
  readonly revision: string | undefined;
  listTools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<OutcomeEnvelope>;
  close(): Promise<void>;
}

/** What both SDK generations' clients have in common, as far as these tests use them. */
interface SdkClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** A v1 or v2 SDK client, connected at `revision`, as a client under test. */
export function asClientUnderTest(client: SdkClient, revision: string | undefined): ClientUnderTest {
  return {
    revision,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: async (name, args) =>
      ((await client.callTool({ name, arguments: args })) as { structuredContent: OutcomeEnvelope })
        .structuredContent,
    close: () => client.close(),
  };
}

interface Fixtures {
  orders: { all: { order_id: string; label: string; version: number }[] };
}

/**
 * Lists, reads, writes once and replays as Alice, then checks the store and the warehouse's ledger: the
 * write is one completed operation with one effect, however the client spoke. The world must be fresh.
 */
export async function roundTrip(
  gw: StartedGateway,
  client: ClientUnderTest,
  keyLabel: string,
): Promise<void> {
  const fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
  const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
  const names = await client.listTools();
  expect(names).toContain('orders_get');
  expect(names).toContain('orders_change_unshipped_address');
  const read = await client.call('orders_get', { order_id: order.order_id });
  expect(read).toMatchObject({ ok: true, status: 'completed', result: { order_id: order.order_id } });
  const args = {
    order_id: order.order_id,
    expected_order_version: order.version,
    new_address: ADDRESS_SAMPLES.clean_us,
    idempotency_key: `${keyLabel}-${Date.now().toString(36)}`,
  };
  const first = await client.call('orders_change_unshipped_address', args);
  expect(first).toMatchObject({ status: 'completed', replayed: false });
  const again = await client.call('orders_change_unshipped_address', args);
  expect(again).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });
  expect(await gw.operation(first.operation_id!)).toMatchObject({ status: 'completed' });
  const effects = await gw.testApi('GET', `/test-api/effects?target=warehouse&ref=${order.order_id}`);
  expect((effects.body as { effects: unknown[] }).effects).toHaveLength(1);
}
