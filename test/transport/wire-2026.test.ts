import { simulationOf } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { ADDRESS_SAMPLES } from '../../packages/domains/src/orders/demo-orders.ts';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { postModern } from '../tasks/extension-client.ts';

const ALICE = 'acme-customer-alice';
const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
};

interface Fixtures {
  orders: { all: { order_id: string; label: string; version: number }[] };
}

/** The 2026-07-28 wire as a client without an SDK sees it: one POST per request, headers beside the body. */
describe('the 2026-07-28 leg of /mcp on the wire', () => {
  let gw: StartedGateway;
  let token: string;
  let fixtures: Fixtures;
  beforeAll(async () => {
    gw = await startGateway({ testApi: true });
    token = await gw.tokenFor(ALICE);
  });
  afterAll(() => gw.close());
  beforeEach(async () => {
    expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
    fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    postModern(gw.url, token, body, headers);

  const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: ENVELOPE },
  });

  const warehouseEffects = async (orderId: string) =>
    (
      (await gw.testApi('GET', `/test-api/effects?target=warehouse&ref=${orderId}`)).body as {
        effects: unknown[];
      }
    ).effects;

  test('server/discover offers 2026-07-28, the tools capability, cache hints and the server identity', async () => {
    const reply = await post(request(1, 'server/discover'), { 'mcp-method': 'server/discover' });
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(1);
    const result = reply.body.result!;
    expect(result.supportedVersions).toContain(MODERN);
    expect(result.capabilities).toMatchObject({ tools: {} });
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 300_000 });
    expect(result._meta).toMatchObject({ 'io.modelcontextprotocol/serverInfo': { name: 'toolgate' } });
  });

  test('tools/list is private to the principal, cacheable for a while, and has no 2025 task vocabulary', async () => {
    const reply = await post(request(2, 'tools/list'), { 'mcp-method': 'tools/list' });
    expect(reply.status).toBe(200);
    const result = reply.body.result as {
      tools: Record<string, unknown>[];
      cacheScope: string;
      ttlMs: number;
    };
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 300_000 });
    const names = result.tools.map((t) => t.name);
    expect(names).toContain('orders_change_unshipped_address');
    // Alice is a customer: the support agent's redirect tool is not hers to see.
    expect(names).not.toContain('shipments_request_redirect');
    for (const tool of result.tools) expect(tool).not.toHaveProperty('execution');
  });

  test('tools/call answers the outcome envelope as a complete result', async () => {
    const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
    const reply = await post(
      request(3, 'tools/call', { name: 'orders_get', arguments: { order_id: order.order_id } }),
      { 'mcp-method': 'tools/call', 'mcp-name': 'orders_get', 'mcp-param-order-id': order.order_id },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({
      resultType: 'complete',
      isError: false,
      structuredContent: { ok: true, status: 'completed', result: { order_id: order.order_id } },
    });
  });

  test('a header that contradicts the body is refused under the request id, and the write never runs', async () => {
    const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
    const write = request(4, 'tools/call', {
      name: 'orders_change_unshipped_address',
      arguments: {
        order_id: order.order_id,
        expected_order_version: order.version,
        new_address: ADDRESS_SAMPLES.clean_us,
        idempotency_key: `wire-mismatch-${Date.now().toString(36)}`,
      },
    });
    const reply = await post(write, { 'mcp-method': 'tools/call', 'mcp-name': 'orders_get' });
    expect(reply.status).toBe(400);
    expect(reply.body.id).toBe(4);
    expect(reply.body.error?.code).toBe(-32020);
    const missing = await post(write, { 'mcp-method': 'tools/call' });
    expect(missing.status).toBe(400);
    expect(missing.body.id).toBe(4);
    expect(await warehouseEffects(order.order_id)).toHaveLength(0);
  });

  test('an envelope naming an unsupported revision is refused under the request id with the supported ones', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 'v-1',
      method: 'tools/list',
      params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    };
    const reply = await post(body, { 'mcp-method': 'tools/list', 'mcp-protocol-version': '2099-01-01' });
    expect(reply.status).toBe(400);
    expect(reply.body.id).toBe('v-1');
    expect(JSON.stringify(reply.body.error?.data)).toContain(MODERN);
  });

  test('an envelope without clientCapabilities is -32602 under the request id', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
    };
    const reply = await post(body, { 'mcp-method': 'tools/list' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  test('the 2025 handshake on the same endpoint is answered as before', async () => {
    const reply = await post(
      {
        jsonrpc: '2.0',
        id: 8,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'wire-test', version: '1.0.0' },
        },
      },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'toolgate' },
    });
    expect(reply.body.result).not.toHaveProperty('resultType');
  });

  test('a mirrored Mcp-Param header must agree with its argument; a Base64 value is decoded first', async () => {
    const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
    const read = request(9, 'tools/call', { name: 'orders_get', arguments: { order_id: order.order_id } });
    const headers = { 'mcp-method': 'tools/call', 'mcp-name': 'orders_get' };
    const agreed = await post(read, { ...headers, 'mcp-param-order-id': order.order_id });
    expect(agreed.status).toBe(200);
    expect(agreed.body.result).toMatchObject({ structuredContent: { status: 'completed' } });
    const encoded = `=?base64?${Buffer.from(order.order_id).toString('base64')}?=`;
    expect((await post(read, { ...headers, 'mcp-param-order-id': encoded })).status).toBe(200);
    for (const value of [undefined, 'ord_00000000000000000000000000000000', '=?base64?not base64?=']) {
      const refused = await post(
        read,
        value === undefined ? headers : { ...headers, 'mcp-param-order-id': value },
      );
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ id: 9, error: { code: -32020 } });
    }
  });

  test('a change whose Mcp-Param-Environment header disagrees is refused before anything is created', async () => {
    const requester = simulationOf(gw.app).principals.find((p) => p.scopes.includes('changes:create'))!;
    const creator = await gw.tokenFor(requester.name);
    const body = request(10, 'tools/call', {
      name: 'change_create',
      arguments: {
        service_id: 'payments-api',
        environment: 'staging',
        start_time: '2099-08-15T07:00:00Z',
        duration_minutes: 60,
        summary: 'Rotate the payments API TLS certificate',
        implementation_plan: 'Deploy the new certificate with the standard pipeline.',
        rollback_plan: 'Redeploy the previous certificate.',
        risk: 'low',
        dry_run: false,
        idempotency_key: `wire-header-${Date.now().toString(36)}`,
      },
    });
    const refused = await postModern(gw.url, creator, body, {
      'mcp-method': 'tools/call',
      'mcp-name': 'change_create',
      'mcp-param-service-id': 'payments-api',
      'mcp-param-environment': 'production',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ id: 10, error: { code: -32020 } });
    const effects = await gw.testApi('GET', '/test-api/effects?target=change_platform');
    expect((effects.body as { effects: unknown[] }).effects).toHaveLength(0);
  });

  test('the hot path answers exactly what the SDK entry answers for the same tools/list and tools/call', async () => {
    const order = fixtures.orders.all.find((o) => o.label === 'alice-editable')!;
    // Mcp-Name as a Base64 sentinel is valid, and left to the SDK entry: the same request on both paths.
    const viaSdk = (name: string) => ({ 'mcp-name': `=?base64?${Buffer.from(name).toString('base64')}?=` });
    const read = request(11, 'tools/call', { name: 'orders_get', arguments: { order_id: order.order_id } });
    const headers = { 'mcp-method': 'tools/call', 'mcp-param-order-id': order.order_id };
    const direct = await post(read, { ...headers, 'mcp-name': 'orders_get' });
    const sdk = await post(read, { ...headers, ...viaSdk('orders_get') });
    expect(sdk.status).toBe(200);
    expect(direct).toEqual(sdk);
    const list = request(12, 'tools/list');
    const listed = await post(list, { 'mcp-method': 'tools/list' });
    // A tools/list carrying a multi-round-trip member is the SDK's to answer; the listing is the same.
    const sdkListed = await post(
      { ...list, params: { ...list.params, requestState: 'ignored' } },
      { 'mcp-method': 'tools/list' },
    );
    expect(sdkListed.status).toBe(200);
    expect(listed).toEqual(sdkListed);
  });
});
