import type { TokenSubject } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newProbeLedger, probeReader, probeTools } from '../gateway/probe-tools.ts';
import { type StartedGateway, startGateway, TEST_CONTROLLER } from '../support/start-gateway.ts';

/** Holds no operator scope: the operator API must still answer an unknown route 404, not 403. */
const outsider: TokenSubject = { sub: 'outsider', tenant: 't', actor: 'customer', scopes: ['probe:read'] };

/**
 * What every HTTP surface answers for a route it does not have, a method it does not take, and the
 * routes beside them: status, the headers a client relies on, and the body, byte for byte.
 */
describe('the answers of the HTTP routes', () => {
  let gw: StartedGateway;

  beforeAll(async () => {
    gw = await startGateway({
      tools: probeTools(newProbeLedger()),
      principals: [probeReader],
      testApi: true,
    });
  });
  afterAll(async () => {
    await gw?.close();
  });

  async function send(method: string, path: string, who?: TokenSubject) {
    const headers: Record<string, string> = who ? { authorization: `Bearer ${await gw.tokenFor(who)}` } : {};
    const response = await fetch(new URL(path, gw.origin), { method, headers });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      allow: response.headers.get('allow'),
      cache: response.headers.get('cache-control'),
      body: await response.text(),
    };
  }

  const notFound = { status: 404, type: 'application/json', allow: null, body: '{"error":"not_found"}' };

  test('the gateway answers a path or a method it does not serve 404, and anything but POST on /mcp 405', async () => {
    expect(await send('GET', '/nowhere')).toEqual({ ...notFound, cache: null });
    expect(await send('POST', '/healthz')).toEqual({ ...notFound, cache: null });
    expect(await send('GET', '/healthz/')).toEqual({ ...notFound, cache: null });
    expect(await send('GET', '/consoles')).toEqual({ ...notFound, cache: null });
    expect(await send('GET', '/test-api')).toEqual({ ...notFound, cache: null });
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect(await send(method, '/mcp')).toEqual({
        status: 405,
        type: 'application/json',
        allow: 'POST',
        cache: null,
        body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method Not Allowed: this server is stateless; POST only"},"id":null}',
      });
    }
    expect(await send('GET', '/healthz')).toMatchObject({ status: 200, body: '{"status":"ok"}' });
    expect(await send('GET', '/.well-known/oauth-protected-resource/mcp')).toMatchObject({
      status: 200,
      cache: 'max-age=300',
    });
  });

  test('the console serves its assets to GET and HEAD only, and answers anything else 404', async () => {
    expect(await send('POST', '/console')).toEqual({ ...notFound, cache: null });
    expect(await send('GET', '/console/missing.js')).toEqual({ ...notFound, cache: null });
    expect(await send('GET', '/console/app.js')).toMatchObject({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      cache: 'no-cache',
    });
    expect(await send('HEAD', '/console/')).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '',
    });
  });

  test('the operator API answers an unknown route or method 404, uncached, before any scope check', async () => {
    const uncachedNotFound = { ...notFound, cache: 'no-store' };
    expect(await send('GET', '/operator/v1/nowhere', outsider)).toEqual(uncachedNotFound);
    expect(await send('DELETE', '/operator/v1/operations', outsider)).toEqual(uncachedNotFound);
    expect(await send('GET', '/operator/v1/operations/op_not_an_id', outsider)).toEqual(uncachedNotFound);
    expect(await send('GET', `/operator/v1/operations/op_${'A'.repeat(26)}/resolve`, outsider)).toEqual(
      uncachedNotFound,
    );
    expect(await send('PUT', '/operator/v1/exceptions', outsider)).toEqual(uncachedNotFound);
    expect(await send('GET', `/operator/v1/exceptions/exc_${'A'.repeat(26)}`, outsider)).toEqual(
      uncachedNotFound,
    );
    expect((await send('GET', `/operator/v1/operations/op_${'A'.repeat(26)}`, outsider)).status).toBe(403);
    expect((await send('DELETE', `/operator/v1/exceptions/exc_${'A'.repeat(26)}`, outsider)).status).toBe(
      403,
    );
    expect((await send('GET', '/operator/v1/operations', outsider)).status).toBe(403);
  });

  test('the test API names the route it does not have', async () => {
    expect(await send('PUT', '/test-api/reset', TEST_CONTROLLER)).toEqual({
      ...notFound,
      cache: null,
      body: '{"error":"not_found","error_description":"no test API route PUT /test-api/reset"}',
    });
    expect(await send('GET', '/test-api/', TEST_CONTROLLER)).toMatchObject({
      status: 404,
      body: '{"error":"not_found","error_description":"no test API route GET /test-api/"}',
    });
    expect(await send('GET', '/test-api/faults', TEST_CONTROLLER)).toMatchObject({ status: 200 });
  });

  test('requests are counted by fixed path or route family, never by raw path', async () => {
    const metrics = (await send('GET', '/metrics')).body;
    const routes = new Set(
      [...metrics.matchAll(/toolgate_http_requests_total\{route="([^"]+)"/g)].map((m) => m[1]),
    );
    expect([...routes].sort()).toEqual(
      [
        '/.well-known/oauth-protected-resource/mcp',
        '/console',
        '/healthz',
        '/mcp',
        '/operator/v1/',
        '/test-api/',
        'other',
      ].sort(),
    );
  });
});
