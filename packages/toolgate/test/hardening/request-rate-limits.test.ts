import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rawPost } from '../../../../test/hardening/raw-post.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import { bodyWeight, DEFAULT_REQUEST_WEIGHT, REQUEST_WEIGHTS } from '../../src/transport/request-metering.ts';

const ORDER_ID = `ord_${'0'.repeat(32)}`;
const who = (sub: string, scopes: string[], actor: TokenSubject['actor'] = 'customer'): TokenSubject => ({
  sub,
  tenant: 'tenant_acme',
  actor,
  scopes,
});
const listings = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));
const ordersGet = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'orders_get', arguments: { order_id: ORDER_ID } },
});

async function headersFor(gw: StartedGateway, subject: TokenSubject): Promise<Record<string, string>> {
  return {
    authorization: `Bearer ${await gw.tokenFor(subject)}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
}

const callsOf = async (gw: StartedGateway, status: string) => {
  const metric = await gw.app.metrics.calls.get();
  return metric.values
    .filter((v) => v.labels.tool === 'orders_get' && v.labels.status === status)
    .reduce((sum, v) => sum + v.value, 0);
};

/** Every authenticated request counts against its principal's rate, weighted by what it costs. */
describe('the per-principal rate counts every request', () => {
  let gw: StartedGateway;
  let flooder: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    gw = await startGateway({ app: { limits: { perPrincipal: 5 } } });
    flooder = await headersFor(gw, who('user_flooder', ['orders:read']));
    other = await headersFor(gw, who('user_other', ['orders:read']));
  });
  afterAll(() => gw.close());

  test('a batch of four listings is paid for; the next one is 429 with Retry-After, another caller passes', async () => {
    const first = await rawPost(gw.url, flooder, JSON.stringify(listings(4)));
    expect(first.status).toBe(200);
    // Four listings weigh 16: the bucket of 5 is 11 tokens in debt, over two seconds of refill.
    const second = await rawPost(gw.url, flooder, JSON.stringify(listings(4)));
    expect(second.status).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(second.body)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringContaining('over 5 calls per second') },
    });
    const ping = await rawPost(gw.url, flooder, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }));
    expect(ping.status).toBe(429);
    // The flooder's tool call draws on the same bucket: refused in its envelope, nothing run.
    const completedBefore = await callsOf(gw, 'completed');
    const call = await rawPost(gw.url, flooder, JSON.stringify(ordersGet(10)));
    expect(JSON.parse(call.body).result.structuredContent).toMatchObject({
      status: 'failed',
      code: 'RATE_LIMITED',
    });
    expect(await callsOf(gw, 'completed')).toBe(completedBefore);
    for (let i = 0; i < 3; i++) {
      const answer = await rawPost(gw.url, other, JSON.stringify(ordersGet(20 + i)));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).result.structuredContent.code).not.toBe('RATE_LIMITED');
    }
  });
});

describe('task queries count too', () => {
  let gw: StartedGateway;

  beforeAll(async () => {
    gw = await startGateway({ app: { limits: { perPrincipal: 3 } } });
  });
  afterAll(() => gw.close());

  test('tasks/list weighs 2: the second within the burst of 3 is 429; another caller is answered', async () => {
    const asker = await headersFor(gw, who('user_asker', ['operations:read']));
    const other = await headersFor(gw, who('user_other', ['operations:read']));
    const tasksList = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/list' });
    const first = await rawPost(gw.url, asker, tasksList);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).id).toBe(1);
    expect((await rawPost(gw.url, asker, tasksList)).status).toBe(429);
    expect((await rawPost(gw.url, other, tasksList)).status).toBe(200);
  });
});

describe('reply bytes per principal are budgeted', () => {
  let gw: StartedGateway;
  let lister: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    gw = await startGateway({
      app: { limits: { perPrincipal: 1_000, replyBytesPerSecondPerPrincipal: 10_000 } },
    });
    lister = await headersFor(gw, who('user_lister', ['orders:read', 'shipments:read']));
    other = await headersFor(gw, who('user_other', ['orders:read', 'shipments:read']));
  });
  afterAll(() => gw.close());

  test('once a listing spent the budget, the caller is refused until it refills; others are not', async () => {
    const listing = await rawPost(gw.url, lister, JSON.stringify(listings(2)));
    expect(listing.status).toBe(200);
    expect(Buffer.byteLength(listing.body)).toBeGreaterThan(20_000);
    const again = await rawPost(gw.url, lister, JSON.stringify(listings(1)));
    expect(again.status).toBe(429);
    expect(JSON.parse(again.body).error.message).toContain('over 10000 reply bytes per second');
    const executedBefore = await callsOf(gw, 'completed');
    const call = await rawPost(gw.url, lister, JSON.stringify(ordersGet(3)));
    expect(JSON.parse(call.body).result.structuredContent).toMatchObject({
      status: 'failed',
      code: 'RATE_LIMITED',
      message: expect.stringContaining('reply bytes per second'),
    });
    expect(await callsOf(gw, 'completed')).toBe(executedBefore);
    expect((await rawPost(gw.url, other, JSON.stringify(listings(1)))).status).toBe(200);
  });
});

describe('the operator API is rate limited before it is routed', () => {
  let gw: StartedGateway;

  beforeAll(async () => {
    gw = await startGateway({ app: { limits: { perPrincipal: 4 } } });
  });
  afterAll(() => gw.close());

  const getOperations = (headers: Record<string, string>) =>
    fetch(`${gw.origin}/operator/v1/operations`, { headers: { authorization: headers.authorization! } });

  test('past its burst an operator gets 429 with Retry-After; another operator is served', async () => {
    const busy = await headersFor(gw, who('user_busy_operator', ['operations:read'], 'operator'));
    const calm = await headersFor(gw, who('user_calm_operator', ['operations:read'], 'operator'));
    // Each call weighs 2: a burst of 4 holds two.
    expect((await getOperations(busy)).status).toBe(200);
    expect((await getOperations(busy)).status).toBe(200);
    const refused = await getOperations(busy);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: 'rate_limited' });
    expect((await getOperations(calm)).status).toBe(200);
  });
});

describe('request weights', () => {
  const served = (name: string) => name === 'orders_get';

  test('each message of a batch counts; served tool calls are left to the gateway', () => {
    expect(bodyWeight(listings(4), served)).toBe(4 * REQUEST_WEIGHTS['tools/list']!);
    expect(bodyWeight({ jsonrpc: '2.0', id: 1, method: 'ping' }, served)).toBe(DEFAULT_REQUEST_WEIGHT);
    expect(bodyWeight([ordersGet(1), { jsonrpc: '2.0', id: 2, method: 'tasks/get' }], served)).toBe(
      REQUEST_WEIGHTS['tasks/get'],
    );
    const unknown = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } };
    expect(bodyWeight(unknown, served)).toBe(DEFAULT_REQUEST_WEIGHT);
    expect(bodyWeight({ jsonrpc: '2.0', method: 'notifications/initialized' }, served)).toBe(1);
  });
});

/** A tools/call the transport refuses before the gateway could charge it is charged all the same. */
describe('tool calls refused on the way to the gateway are charged too', () => {
  let gw: StartedGateway;
  const MODERN_META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'flood', version: '1.0.0' },
  };

  beforeAll(async () => {
    gw = await startGateway({ app: { limits: { perPrincipal: 5 } } });
  });
  afterAll(() => gw.close());

  /** Sends `n` refused calls one after another; the statuses answered. */
  async function flood(headers: Record<string, string>, body: unknown, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) statuses.push((await rawPost(gw.url, headers, JSON.stringify(body))).status);
    return statuses;
  }
  const served = (statuses: number[]) => statuses.filter((status) => status !== 429).length;

  test('2025-11-25: headers that disagree with the body are refused, then 429 once the rate is spent', async () => {
    const headers = {
      ...(await headersFor(gw, who('user_headers', ['orders:read']))),
      'mcp-name': 'orders_search',
    };
    const statuses = await flood(headers, ordersGet(1), 20);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    // Five refusals spend a bucket of five; at most a token or two refills while the rest are sent.
    expect(served(statuses)).toBeLessThanOrEqual(8);
    expect(statuses.at(-1)).toBe(429);
  });

  test('2026-07-28: a call the SDK refuses (arguments not an object) is charged too', async () => {
    const headers = {
      ...(await headersFor(gw, who('user_modern', ['orders:read']))),
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'orders_get',
    };
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'orders_get', arguments: 'not an object', _meta: MODERN_META },
    };
    const statuses = await flood(headers, body, 20);
    expect(statuses[0]).not.toBe(429);
    expect(served(statuses)).toBeLessThanOrEqual(8);
    expect(statuses.at(-1)).toBe(429);
  });

  test('calls the gateway charges are charged once: five good calls fit a bucket of five', async () => {
    const headers = await headersFor(gw, who('user_good', ['orders:read']));
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await rawPost(gw.url, headers, JSON.stringify(ordersGet(i)));
      expect(answer.status).toBe(200);
      codes.push(JSON.parse(answer.body).result.structuredContent.code ?? 'none');
    }
    expect(codes).not.toContain('RATE_LIMITED');
  });
});
