import { simulationOf } from '@toolgate/simulation';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';

const LEGACY = '2025-11-25';

/**
 * The standard headers on 2025-era traffic: that revision sends none, but docs/protocol.md tells a
 * balancer it may route on them, so a POST whose `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*` headers
 * disagree with its body is refused as the 2026 leg refuses it, before anything runs.
 */
describe('Mcp-* headers on the 2025-11-25 revision', () => {
  let gw: StartedGateway;
  let token: string;
  beforeAll(async () => {
    gw = await startGateway({ testApi: true });
    const creator = simulationOf(gw.app).principals.find((p) => p.scopes.includes('changes:create'))!;
    token = await gw.tokenFor(creator.name);
  });
  afterAll(() => gw.close());

  async function post(body: unknown, headers: Record<string, string>) {
    const response = await fetch(gw.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': LEGACY,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers field by field
    return { status: response.status, body: (await response.json()) as any };
  }
  let seq = 0;
  const stagingChange = (id: number) => {
    seq += 1;
    return {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'change_create',
        arguments: {
          service_id: 'payments-api',
          environment: 'staging',
          start_time: `2099-08-${String(10 + seq).padStart(2, '0')}T07:00:00Z`,
          duration_minutes: 60,
          summary: 'Rotate the payments API TLS certificate',
          implementation_plan: 'Deploy the new certificate with the standard pipeline.',
          rollback_plan: 'Redeploy the previous certificate.',
          risk: 'low',
          dry_run: false,
          idempotency_key: `legacy-headers-${process.pid}-${seq}`.padEnd(24, '0'),
        },
      },
    };
  };
  const changesCreated = async () =>
    ((await gw.testApi('GET', '/test-api/effects?target=change_platform')).body as { effects: unknown[] })
      .effects.length;

  test('a header that says another method, tool or environment is -32020 / HTTP 400 and creates nothing', async () => {
    const before = await changesCreated();
    for (const [headers, header] of [
      [{ 'mcp-param-environment': 'production' }, 'Mcp-Param-Environment'],
      [{ 'mcp-name': 'orders_get' }, 'Mcp-Name'],
      [{ 'mcp-name': `=?base64?${Buffer.from('orders_get').toString('base64')}?=` }, 'Mcp-Name'],
      [{ 'mcp-method': 'tools/list' }, 'Mcp-Method'],
    ] as const) {
      const refused = await post(stagingChange(7), headers);
      expect(refused.status, JSON.stringify(headers)).toBe(400);
      expect(refused.body).toMatchObject({
        id: 7,
        error: { code: -32020, data: { mismatch: { header } } },
      });
    }
    // A batch is refused whole when one of its messages disagrees.
    const batch = await post([stagingChange(8), stagingChange(9)], { 'mcp-param-environment': 'production' });
    expect(batch.status).toBe(400);
    expect(batch.body).toMatchObject({ id: null, error: { code: -32020 } });
    expect(await changesCreated()).toBe(before);
  });

  test('headers that agree with the body, and none at all, are served as before', async () => {
    const before = await changesCreated();
    const agreed = await post(stagingChange(10), {
      'mcp-method': 'tools/call',
      'mcp-name': 'change_create',
      'mcp-param-environment': 'staging',
      'mcp-param-service-id': 'payments-api',
    });
    expect(agreed.status).toBe(200);
    expect(agreed.body.result.structuredContent).toMatchObject({ ok: true });
    const afterAgreed = await changesCreated();
    expect(afterAgreed).toBeGreaterThan(before);
    const plain = await post(stagingChange(11), {});
    expect(plain.body.result.structuredContent).toMatchObject({ ok: true });
    expect(await changesCreated()).toBeGreaterThan(afterAgreed);
  });
});
