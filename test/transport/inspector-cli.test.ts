import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { OutcomeEnvelope } from 'toolgate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';

const require = createRequire(import.meta.url);
const INSPECTOR = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

interface Fixtures {
  orders: { all: { order_id: string; label: string; version: number }[] };
}

/** MCP Inspector's CLI (2.x; it opens with the 2025 handshake), as the README has a newcomer run it. */
describe('MCP Inspector CLI against the gateway', () => {
  let gw: StartedGateway;
  let token: string;
  beforeAll(async () => {
    gw = await startGateway({ testApi: true });
    token = await gw.tokenFor('acme-customer-alice');
  });
  afterAll(() => gw.close());

  async function inspect(...args: string[]): Promise<Record<string, unknown>> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        INSPECTOR,
        '--cli',
        gw.url,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${token}`,
        ...args,
      ],
      {
        env: { ...process.env, MCP_CATALOG_PATH: join(gw.dataDir, 'inspector-catalog.json') },
        timeout: 30_000,
      },
    );
    return JSON.parse(stdout) as Record<string, unknown>;
  }
  const envelopeOf = (result: Record<string, unknown>) => result.structuredContent as OutcomeEnvelope;

  test('lists, reads, writes once and replays', async () => {
    const { tools } = (await inspect('--method', 'tools/list')) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name)).toContain('orders_change_unshipped_address');
    const fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
    const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
    const read = await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'orders_get',
      '--tool-arg',
      `order_id=${order.order_id}`,
    );
    expect(envelopeOf(read)).toMatchObject({ status: 'completed', result: { order_id: order.order_id } });
    const write = [
      '--method',
      'tools/call',
      '--tool-name',
      'orders_change_unshipped_address',
      '--tool-arg',
      `order_id=${order.order_id}`,
      `expected_order_version=${order.version}`,
      `new_address=${JSON.stringify(ADDRESS_SAMPLES.clean_us)}`,
      `idempotency_key=inspector-${Date.now().toString(36)}`,
    ];
    const first = envelopeOf(await inspect(...write));
    expect(first).toMatchObject({ status: 'completed', replayed: false });
    const again = envelopeOf(await inspect(...write));
    expect(again).toMatchObject({ status: 'completed', replayed: true, operation_id: first.operation_id });
    expect(await gw.operation(first.operation_id!)).toMatchObject({ status: 'completed' });
    const effects = await gw.testApi('GET', `/test-api/effects?target=warehouse&ref=${order.order_id}`);
    expect((effects.body as { effects: unknown[] }).effects).toHaveLength(1);
  }, 60_000);
});
