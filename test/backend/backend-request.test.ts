import type { ToolContext } from 'toolgate';
import { type BackendCallContext, createHttpBackend } from 'toolgate';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type BackendServer, startBackendServer } from './backend-server.ts';

const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/;
const anything = z.unknown();
const operation = { id: 'op_01JTESTOPERATION0000000003' };
const open = () => new AbortController().signal;

let server: BackendServer;
beforeEach(async () => {
  server = await startBackendServer();
});
afterEach(async () => {
  await server.close();
});

describe('what every call sends', () => {
  it('sends the operation id, the caller traceparent and correlation id, and the JSON body', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, headers: { authorization: 'Bearer svc' } });
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await backend.call(
      { signal: open(), operation, traceparent, correlationId: 'corr-1' },
      { method: 'POST', path: '/items', body: { name: 'x', n: 1 }, response: anything },
    );
    const [request] = server.requests;
    expect(request!.headers).toMatchObject({
      'idempotency-key': operation.id,
      traceparent,
      'x-correlation-id': 'corr-1',
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: 'Bearer svc',
    });
    expect(JSON.parse(request!.body)).toEqual({ name: 'x', n: 1 });
  });

  it('makes a fresh valid traceparent per call when none (or a malformed one) is given; no key without an operation', async () => {
    const backend = createHttpBackend({ baseUrl: server.url });
    await backend.call({ signal: open() }, { method: 'GET', path: '/a', response: anything });
    await backend.call(
      { signal: open(), traceparent: 'garbage' },
      { method: 'GET', path: '/a', response: anything },
    );
    const [first, second] = server.requests.map((r) => r.headers);
    for (const headers of [first!, second!]) {
      expect(headers.traceparent).toMatch(TRACEPARENT);
      expect(headers.traceparent).not.toMatch(/^00-0{32}-|-0{16}-01$/);
      expect(headers['idempotency-key']).toBeUndefined();
      expect(headers['content-type']).toBeUndefined();
      expect(headers['x-correlation-id']).toBeUndefined();
    }
    expect(first!.traceparent).not.toBe(second!.traceparent);
  });

  it('uses the configured idempotency header, and sends the same key and trace on every retry', async () => {
    const backend = createHttpBackend({
      baseUrl: server.url,
      idempotencyHeader: 'X-Request-Id',
      dedupesByKey: true,
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    });
    server.script({ status: 500 }, { reset: true });
    await backend.call(
      { signal: open(), operation },
      { method: 'PUT', path: '/a', body: {}, response: anything },
    );
    expect(server.requests).toHaveLength(3);
    expect(new Set(server.requests.map((r) => r.headers['x-request-id']))).toEqual(new Set([operation.id]));
    expect(new Set(server.requests.map((r) => r.headers.traceparent)).size).toBe(1);
  });

  it('asks a headers function on every call; a failing one sends nothing and answers unavailable', async () => {
    let token = 0;
    const backend = createHttpBackend({
      baseUrl: server.url,
      headers: async () => ({ authorization: `t${++token}` }),
    });
    await backend.call({ signal: open() }, { method: 'GET', path: '/a', response: anything });
    await backend.call({ signal: open() }, { method: 'GET', path: '/a', response: anything });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['t1', 't2']);
    const failing = createHttpBackend({
      baseUrl: server.url,
      headers: () => Promise.reject(new Error('token service down')),
    });
    const result = await failing.call(
      { signal: open(), operation },
      { method: 'POST', path: '/a', response: anything },
    );
    expect(result.kind).toBe('unavailable');
    expect(server.requests).toHaveLength(2);
  });

  it('joins the path under the base path, encodes params and query, skips undefined query values', async () => {
    const backend = createHttpBackend({ baseUrl: `${server.url}/api/v2/` });
    await backend.call(
      { signal: open() },
      {
        method: 'GET',
        path: '/orders/{orderId}/lines',
        params: { orderId: 'a/b c?' },
        query: { q: 'x&y=z', limit: 5, open: true, cursor: undefined },
        response: anything,
      },
    );
    expect(server.requests[0]!.url).toBe('/api/v2/orders/a%2Fb%20c%3F/lines?q=x%26y%3Dz&limit=5&open=true');
  });

  it('is satisfied by a ToolContext, structurally', () => {
    expectTypeOf<ToolContext>().toExtend<BackendCallContext>();
  });
});

describe('programmer errors throw; nothing is sent', () => {
  it('refuses bad options at creation', () => {
    for (const baseUrl of ['not a url', 'ftp://x', 'http://u:p@x', 'http://x/?q=1', 'http://x/#f']) {
      expect(() => createHttpBackend({ baseUrl })).toThrow(/baseUrl/);
    }
    const baseUrl = 'http://127.0.0.1:1';
    expect(() => createHttpBackend({ baseUrl, retry: { attempts: 0 } })).toThrow(/attempts/);
    expect(() => createHttpBackend({ baseUrl, retry: { attempts: 50 } })).toThrow(/attempts/);
    expect(() => createHttpBackend({ baseUrl, retry: { baseDelayMs: 10, maxDelayMs: 5 } })).toThrow(
      /maxDelayMs/,
    );
    expect(() => createHttpBackend({ baseUrl, attemptTimeoutMs: 0 })).toThrow(/attemptTimeoutMs/);
    expect(() => createHttpBackend({ baseUrl, idempotencyHeader: 'bad header' })).toThrow();
    expect(() => createHttpBackend({ baseUrl, headers: { authorization: 'a\nb' } })).toThrow();
  });

  it('refuses a request that could not be sent as written', async () => {
    const backend = createHttpBackend({ baseUrl: `${server.url}/api` });
    const ctx = { signal: open() };
    const call = (request: Parameters<typeof backend.call>[1]) => backend.call(ctx, request);
    await expect(call({ method: 'GET', path: '/a', body: {}, response: anything })).rejects.toThrow(/body/);
    await expect(call({ method: 'GET', path: 'a', response: anything })).rejects.toThrow(/start with/);
    await expect(call({ method: 'GET', path: '/a/{id}', response: anything })).rejects.toThrow(
      /needs param id/,
    );
    await expect(call({ method: 'GET', path: '/a', params: { id: 1 }, response: anything })).rejects.toThrow(
      /not in/,
    );
    for (const id of ['..', '.', '']) {
      await expect(
        call({ method: 'GET', path: '/a/{id}', params: { id }, response: anything }),
      ).rejects.toThrow(/not a path segment/);
    }
    await expect(call({ method: 'GET', path: '/../admin', response: anything })).rejects.toThrow(/leaves/);
    expect(server.requests).toHaveLength(0);
  });
});
