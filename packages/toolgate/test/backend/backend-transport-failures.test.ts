import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type BackendServer,
  refusedUrl,
  startBackendServer,
} from '../../../../test/backend/backend-server.ts';
import { failureOfFetchError } from '../../src/backend/backend-failure.ts';
import { createHttpBackend } from '../../src/backend/http-backend.ts';

const item = z.strictObject({ state: z.string() });
const fastRetry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
const operation = { id: 'op_01JTESTOPERATION0000000001' };
const open = () => new AbortController().signal;

let server: BackendServer;
beforeEach(async () => {
  server = await startBackendServer();
});
afterEach(async () => {
  await server.close();
});

describe('connect failures: nothing was sent', () => {
  it('answers unavailable for a refused GET and a refused non-repeatable POST', async () => {
    const backend = createHttpBackend({ baseUrl: (await refusedUrl()).url, retry: fastRetry });
    const read = await backend.call({ signal: open() }, { method: 'GET', path: '/items/1', response: item });
    expect(read).toMatchObject({ kind: 'unavailable' });
    expect(read.kind === 'unavailable' && read.reason).toContain('ECONNREFUSED');
    const write = await backend.call(
      { signal: open(), operation },
      { method: 'POST', path: '/items', body: { a: 1 }, response: item },
    );
    expect(write).toMatchObject({ kind: 'unavailable' });
  });

  it('retries even a non-repeatable write after a refused connect, and sends it once', async () => {
    const refused = await refusedUrl();
    await server.close();
    const backend = createHttpBackend({
      baseUrl: refused.url,
      retry: { attempts: 10, baseDelayMs: 50, maxDelayMs: 100 },
    });
    const pending = backend.call(
      { signal: open(), operation },
      { method: 'POST', path: '/items', body: { a: 1 }, response: item },
    );
    await new Promise((resolve) => setTimeout(resolve, 30));
    server = await startBackendServer(refused.port);
    server.script({ status: 201, body: { state: 'created' } });
    expect(await pending).toEqual({ kind: 'ok', status: 201, body: { state: 'created' } });
    expect(server.requests).toHaveLength(1);
  });

  it('answers unavailable when the host name does not resolve', async () => {
    const backend = createHttpBackend({ baseUrl: 'http://toolgate-backend.invalid', retry: { attempts: 1 } });
    const result = await backend.call({ signal: open() }, { method: 'GET', path: '/x', response: item });
    expect(result.kind).toBe('unavailable');
    expect(result.kind === 'unavailable' && result.reason).toMatch(/ENOTFOUND|EAI_AGAIN/);
  });

  it.each([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'UND_ERR_CONNECT_TIMEOUT',
  ])('classifies fetch failed with cause %s as never sent', (code) => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
    expect(failureOfFetchError(error).reach).toBe('none');
    const both = new AggregateError([
      Object.assign(new Error(), { code }),
      Object.assign(new Error(), { code }),
    ]);
    expect(failureOfFetchError(new TypeError('fetch failed', { cause: both })).reach).toBe('none');
  });

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', undefined])('classifies cause %s as possibly applied', (code) => {
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('other side closed'), { code }),
    });
    expect(failureOfFetchError(error).reach).toBe('maybe');
    expect(failureOfFetchError(new Error('surprise')).reach).toBe('maybe');
  });
});

describe('failures after the request was sent', () => {
  const post = { method: 'POST', path: '/items', body: { a: 1 }, response: item } as const;

  it('sends a non-repeatable POST exactly once on 500, timeout, reset and unreadable body: unknown', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry, attemptTimeoutMs: 200 });
    server.script({ status: 500 }, { hang: true }, { reset: true }, { partial: true });
    for (const reason of [
      '500',
      'no answer within 200 ms',
      'may have reached the service',
      'could not be read',
    ]) {
      const result = await backend.call({ signal: open(), operation }, post);
      expect(result.kind).toBe('unknown');
      expect(result.kind === 'unknown' && result.reason).toContain(reason);
    }
    expect(server.requests).toHaveLength(4);
  });

  it('retries a repeatable GET through 500, reset, unreadable body and timeout, then reads', async () => {
    const backend = createHttpBackend({
      baseUrl: server.url,
      retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 5 },
      attemptTimeoutMs: 200,
    });
    server.script(
      { status: 500 },
      { reset: true },
      { partial: true },
      { hang: true },
      { status: 200, body: { state: 'open' } },
    );
    const result = await backend.call(
      { signal: open() },
      { method: 'GET', path: '/items/1', response: item },
    );
    expect(result).toEqual({ kind: 'ok', status: 200, body: { state: 'open' } });
    expect(server.requests).toHaveLength(5);
  });

  it('answers unavailable for a GET and unknown for a repeatable POST once retries run out', async () => {
    server.fallback = { status: 502 };
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry, dedupesByKey: true });
    const read = await backend.call({ signal: open() }, { method: 'GET', path: '/items/1', response: item });
    expect(read).toMatchObject({ kind: 'unavailable' });
    expect(server.requests).toHaveLength(3);
    const write = await backend.call({ signal: open(), operation }, post);
    expect(write).toMatchObject({ kind: 'unknown' });
    expect(server.requests).toHaveLength(6);
    expect(server.requests.slice(3).map((r) => r.headers['idempotency-key'])).toEqual(
      Array(3).fill(operation.id),
    );
  });

  it('keeps a repeatable write unknown when an attempt that may have applied is followed by a refused connect', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry, dedupesByKey: true });
    server.script({ status: 500, close: true });
    const result = await backend.call({ signal: open(), operation }, post);
    expect(result.kind).toBe('unknown');
    expect(result.kind === 'unknown' && result.reason).toContain('ECONNREFUSED');
    // Each attempt's own cause, not only the last one.
    expect(result.kind === 'unknown' && result.reason).toMatch(
      /^3 attempts: 1\. the service answered 500; 2\. could not connect \(ECONNREFUSED\); 3\. could not connect \(ECONNREFUSED\)$/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('keeps a repeatable write unknown when a 5xx is followed by an unmapped 4xx', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry, dedupesByKey: true });
    server.script({ status: 503 }, { status: 409 });
    const result = await backend.call({ signal: open(), operation }, post);
    expect(result.kind).toBe('unknown');
    expect(server.requests).toHaveLength(2);
  });

  it('does not treat a POST without an operation as repeatable, even when the service dedupes by key', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry, dedupesByKey: true });
    server.fallback = { status: 500 };
    expect((await backend.call({ signal: open() }, post)).kind).toBe('unknown');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('lets the request override repeatability both ways', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry });
    server.fallback = { status: 500 };
    const get = { method: 'GET', path: '/report', response: item, repeatable: false } as const;
    expect((await backend.call({ signal: open() }, get)).kind).toBe('unknown');
    expect(server.requests).toHaveLength(1);
    const put = {
      method: 'PUT',
      path: '/items/1',
      body: { state: 'x' },
      response: item,
      repeatable: true,
    } as const;
    expect((await backend.call({ signal: open() }, put)).kind).toBe('unknown');
    expect(server.requests).toHaveLength(4);
  });
});
