import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rawPost } from '../../../../test/hardening/raw-post.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { MAX_FIELD_ERRORS } from '../../src/gateway/field-errors.ts';
import { DEFAULT_JSON_KEY_LIMIT } from '../../src/transport/json-bounds.ts';

const ORDER_ID = `ord_${'0'.repeat(32)}`;
const scopeless = { sub: 'user_scopeless', tenant: 'tenant_acme', actor: 'customer' as const, scopes: [] };
const reader = {
  sub: 'user_reader',
  tenant: 'tenant_acme',
  actor: 'customer' as const,
  scopes: ['orders:read'],
};

const unknownKeys = (n: number): Record<string, unknown> => {
  const args: Record<string, unknown> = { order_id: ORDER_ID };
  for (let i = 0; i < n; i++) args[`k${i}`] = 0;
  return args;
};
const ordersGet = (args: unknown) => ({
  jsonrpc: '2.0',
  id: 7,
  method: 'tools/call',
  params: { name: 'orders_get', arguments: args },
});

/** A body's keys and nesting are bounded before it is parsed, and nothing about it is recorded. */
describe('bounded request bodies', () => {
  let gw: StartedGateway;
  const headers: Record<string, Record<string, string>> = {};
  const post = (who: 'scopeless' | 'reader', body: unknown) =>
    rawPost(gw.url, headers[who]!, typeof body === 'string' ? body : JSON.stringify(body));
  const auditRows = async () =>
    (await gw.app.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM audit_log'))[0]!.n;
  const callsCounted = async () => {
    const metric = await gw.app.metrics.calls.get();
    return metric.values.reduce((sum, v) => sum + v.value, 0);
  };

  beforeAll(async () => {
    gw = await startGateway();
    for (const [name, who] of [
      ['scopeless', scopeless],
      ['reader', reader],
    ] as const) {
      headers[name] = {
        authorization: `Bearer ${await gw.tokenFor(who)}`,
        'content-type': 'application/json',
        accept: 'application/json',
      };
    }
  });
  afterAll(() => gw.close());

  test('a body with more keys than the limit is refused -32600 before any tool code, unaudited', async () => {
    const audited = Number(await auditRows());
    const counted = await callsCounted();
    const response = await post('scopeless', ordersGet(unknownKeys(DEFAULT_JSON_KEY_LIMIT + 1)));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: expect.stringContaining(`more than ${DEFAULT_JSON_KEY_LIMIT} object keys`),
      },
    });
    expect(Number(await auditRows())).toBe(audited);
    expect(await callsCounted()).toBe(counted);
  });

  test('keys are counted across a batch, not per message', async () => {
    const half = Math.ceil(DEFAULT_JSON_KEY_LIMIT / 2);
    const batch = [ordersGet(unknownKeys(half)), { ...ordersGet(unknownKeys(half)), id: 8 }];
    const response = await post('reader', batch);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error.code).toBe(-32600);
  });

  test('nesting deeper than the limit is refused the same way', async () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100; i++) deep = [deep];
    const response = await post('reader', ordersGet({ order_id: ORDER_ID, nested: deep }));
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).error.message).toContain('nested deeper than 64 levels');
  });

  test('colons and brackets inside strings are not keys or levels', async () => {
    const text = `${':'.repeat(DEFAULT_JSON_KEY_LIMIT + 5)}${'{['.repeat(100)}\\"`;
    const response = await post('reader', ordersGet({ order_id: ORDER_ID, note: text }));
    expect(response.status).toBe(200);
    const envelope = JSON.parse(response.body).result.structuredContent;
    expect(envelope.code).toBe('INVALID_ARGUMENT');
    expect(envelope.field_errors.map((e: { field: string }) => e.field)).toEqual(['note']);
  });

  test('under the limit, a caller without the scope is refused FORBIDDEN, and audited', async () => {
    const audited = Number(await auditRows());
    const response = await post('scopeless', ordersGet(unknownKeys(DEFAULT_JSON_KEY_LIMIT - 100)));
    const envelope = JSON.parse(response.body).result.structuredContent;
    expect(envelope).toMatchObject({ status: 'failed', code: 'FORBIDDEN', field_errors: [] });
    expect(Number(await auditRows())).toBe(audited + 1);
  });

  test('under the limit, a caller with the scope gets a capped list of field errors', async () => {
    const response = await post('reader', ordersGet(unknownKeys(DEFAULT_JSON_KEY_LIMIT - 100)));
    const envelope = JSON.parse(response.body).result.structuredContent;
    expect(envelope.code).toBe('INVALID_ARGUMENT');
    expect(envelope.field_errors).toHaveLength(MAX_FIELD_ERRORS + 1);
    expect(envelope.field_errors.at(-1)).toMatchObject({ code: 'MORE_PROBLEMS' });
  });
});
