import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ProbeLedger } from '../gateway/probe-tools.ts';
import { startProbeGateway } from '../support/probe-gateway.ts';
import type { StartedGateway } from '../support/start-gateway.ts';

/** Sends raw HTTP so Host and other headers fetch would fix are under the test's control. */
function rawPost(url: string, headers: Record<string, string>, body: string, method = 'POST') {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(url, { method, headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

describe('the Streamable HTTP wire', () => {
  let gw: StartedGateway;
  let ledger: ProbeLedger;
  let auth: Record<string, string>;
  const echo = (id: number | string, text = 'a') => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'probe_echo', arguments: { text } },
  });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    rawPost(gw.url, { ...auth, ...headers }, typeof body === 'string' ? body : JSON.stringify(body));

  beforeAll(async () => {
    ({ gw, ledger, headers: auth } = await startProbeGateway({ bodyLimitBytes: 4096 }));
  });
  afterAll(() => gw.close());

  test('a call is answered as application/json under the client id', async () => {
    const response = await post(echo('abc'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(JSON.parse(response.body)).toMatchObject({
      jsonrpc: '2.0',
      id: 'abc',
      result: { structuredContent: { ok: true } },
    });
  });

  test('concurrent clients reusing the same id each get their own answer', async () => {
    const texts = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const replies = await Promise.all(texts.map((t) => post(echo(1, t))));
    const results = replies.map((r) => JSON.parse(r.body));
    expect(results.map((r) => r.id)).toEqual(texts.map(() => 1));
    expect(results.map((r) => r.result.structuredContent.result.text)).toEqual(texts);
  });

  test('a batch is answered as an array in order', async () => {
    const response = await post([
      echo(1, 'x'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      echo('2', 'y'),
    ]);
    const body = JSON.parse(response.body);
    expect(body.map((r: { id: unknown }) => r.id)).toEqual([1, '2']);
    expect(body[1].result.structuredContent.result).toEqual({ text: 'y' });
  });

  test('initialize negotiates a protocol version and declares tools only', async () => {
    const response = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const body = JSON.parse(response.body);
    expect(body.result.protocolVersion).toBe('2025-06-18');
    expect(body.result.capabilities).toEqual({ tools: { listChanged: false } });
    expect(response.headers['mcp-session-id']).toBeUndefined();
  });

  test('initialize with missing or invalid params is -32602 with a short message, not -32603 with zod issues', async () => {
    for (const params of [
      undefined,
      {},
      { protocolVersion: 2025, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      { protocolVersion: '2025-06-18', capabilities: [], clientInfo: { name: 't', version: '1' } },
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't' } },
    ]) {
      const response = await post({
        jsonrpc: '2.0',
        id: 9,
        method: 'initialize',
        ...(params ? { params } : {}),
      });
      const body = JSON.parse(response.body);
      expect(body, JSON.stringify(params)).toMatchObject({
        id: 9,
        error: { code: -32602, message: expect.stringMatching(/^Invalid params: initialize needs /) },
      });
      expect(response.body).not.toContain('invalid_type');
      expect(response.body.length).toBeLessThan(300);
    }
  });

  test('notifications alone are accepted with 202 and no body', async () => {
    const response = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(response.status).toBe(202);
    expect(response.body).toBe('');
  });

  test('malformed tools/call params are -32602 (invalid params), not an internal error', async () => {
    const before = ledger.executions.probe_echo ?? 0;
    for (const params of [{}, { name: 'probe_echo', arguments: [1] }, { name: 7 }]) {
      const response = await post({ jsonrpc: '2.0', id: 5, method: 'tools/call', params });
      expect(JSON.parse(response.body)).toMatchObject({ id: 5, error: { code: -32602 } });
    }
    expect(ledger.executions.probe_echo ?? 0).toBe(before);
  });

  test('unknown methods are JSON-RPC errors', async () => {
    const response = await post({ jsonrpc: '2.0', id: 9, method: 'resources/list' });
    expect(JSON.parse(response.body)).toMatchObject({ id: 9, error: { code: -32601 } });
  });

  test.each([
    ['GET', 405],
    ['DELETE', 405],
  ])('%s /mcp is %i: the server keeps no sessions or streams', async (method, status) => {
    const response = await rawPost(gw.url, { ...auth, accept: 'text/event-stream' }, '', method);
    expect(response.status).toBe(status);
    expect(response.headers.allow).toBe('POST');
  });

  const refusals: [string, () => Promise<{ status: number; body: string }>, number, number | null][] = [
    ['malformed JSON', () => post('{"jsonrpc":'), 400, -32700],
    ['not JSON-RPC', () => post({ hello: 'world' }), 400, -32600],
    ['an empty batch', () => post([]), 400, -32600],
    [
      'initialize in a batch',
      () => post([{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, echo(2)]),
      400,
      -32600,
    ],
    ['a body over the limit', () => post(echo(1, 'x'.repeat(5000))), 413, -32000],
    ['a non-JSON content type', () => post(echo(1), { 'content-type': 'text/plain' }), 415, -32000],
    ['an Accept without JSON', () => post(echo(1), { accept: 'text/html' }), 406, -32000],
    [
      'an unsupported protocol version',
      () => post(echo(1), { 'mcp-protocol-version': '1999-01-01' }),
      400,
      -32000,
    ],
    ['a foreign Host (DNS rebinding)', () => post(echo(1), { host: 'evil.example.com' }), 403, -32000],
    ['a foreign Origin', () => post(echo(1), { origin: 'http://evil.example.com' }), 403, -32000],
  ];

  test.each(refusals)('%s is refused with HTTP %i and nothing runs', async (_name, send, status, code) => {
    const before = ledger.executions.probe_echo ?? 0;
    const response = await send();
    expect(response.status).toBe(status);
    if (code !== null)
      expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code } });
    expect(ledger.executions.probe_echo ?? 0).toBe(before);
  });

  test('localhost Host and Origin are served', async () => {
    const port = new URL(gw.url).port;
    const response = await post(echo(1), { host: `localhost:${port}`, origin: `http://localhost:${port}` });
    expect(response.status).toBe(200);
  });

  test('health, readiness and metrics', async () => {
    expect(await (await fetch(`${gw.origin}/healthz`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${gw.origin}/readyz`)).json()).toEqual({ status: 'ready', release_id: null });
    const metrics = await fetch(`${gw.origin}/metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('tool_duration_seconds_bucket');
  });

  test("a cancellation names the caller's own request: another principal cannot cancel it", async () => {
    ledger.waitAbortedAfterMs = null;
    const wait = {
      jsonrpc: '2.0',
      id: 'w1',
      method: 'tools/call',
      params: { name: 'probe_wait', arguments: { text: 'a' } },
    };
    const cancel = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'w1', reason: 'stop' },
    };
    const pending = post(wait);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const otherToken = await gw.tokenFor({
      sub: 'someone_else',
      tenant: 'tenant_probe',
      actor: 'customer',
      scopes: [],
    });
    expect((await post(cancel, { authorization: `Bearer ${otherToken}` })).status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(ledger.waitAbortedAfterMs).toBeNull();
    expect((await post(cancel)).status).toBe(202);
    const answer = await pending;
    expect(JSON.parse(answer.body)).toMatchObject({
      id: 'w1',
      error: { code: -32000, message: 'Request cancelled: stop' },
    });
    expect(ledger.waitAbortedAfterMs).not.toBeNull();
    expect(ledger.waitAbortedAfterMs!).toBeLessThan(1500);
  });

  test('a client that disconnects aborts its call', async () => {
    // probe_wait runs three seconds within a ten-second timeout: only the disconnect can abort it soon.
    ledger.waitAbortedAfterMs = null;
    const before = ledger.executions.probe_wait ?? 0;
    const controller = new AbortController();
    const pending = fetch(gw.url, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'probe_wait', arguments: { text: 'a' } },
      }),
      signal: controller.signal,
    }).catch(() => null);
    await until(() => (ledger.executions.probe_wait ?? 0) > before);
    controller.abort();
    await pending;
    await until(() => ledger.waitAbortedAfterMs !== null);
    expect(ledger.waitAbortedAfterMs!).toBeLessThan(2500);
  });
});

/** Resolves once `done` holds, checking every 5 ms; fails the test after 2.5 s. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 2500;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 2.5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
