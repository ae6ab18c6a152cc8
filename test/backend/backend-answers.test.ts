import { createHttpBackend } from 'toolgate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BackendServer, startBackendServer } from './backend-server.ts';

const item = z.strictObject({ state: z.string(), count: z.number().int().optional() });
const fastRetry = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
const operation = { id: 'op_01JTESTOPERATION0000000002' };
const open = () => new AbortController().signal;
const post = { method: 'POST', path: '/items', body: { a: 1 }, response: item } as const;
const get = { method: 'GET', path: '/items/1', response: item } as const;

let server: BackendServer;
beforeEach(async () => {
  server = await startBackendServer();
});
afterEach(async () => {
  await server.close();
});

describe('429 and 503 with Retry-After', () => {
  it('retries a repeatable GET after 429 and 503 when the wait fits', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry });
    server.script(
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 200, body: { state: 'open' } },
    );
    expect(await backend.call({ signal: open() }, get)).toMatchObject({
      kind: 'ok',
      body: { state: 'open' },
    });
    expect(server.requests).toHaveLength(3);
  });

  it('waits as long as Retry-After asks', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: { maxDelayMs: 2_000 } });
    server.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 200, body: { state: 'open' } });
    expect((await backend.call({ signal: open() }, get)).kind).toBe('ok');
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  });

  it('sends a non-repeatable write once: 429 is unavailable (not processed), 503 unknown', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry });
    server.script(
      { status: 429, headers: { 'retry-after': '0' } },
      { status: 503, headers: { 'retry-after': '0' } },
    );
    expect((await backend.call({ signal: open(), operation }, post)).kind).toBe('unavailable');
    expect((await backend.call({ signal: open(), operation }, post)).kind).toBe('unknown');
    expect(server.requests).toHaveLength(2);
  });

  it('does not wait when Retry-After exceeds maxDelayMs: GET unavailable, repeatable write unknown', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry, dedupesByKey: true });
    server.fallback = { status: 503, headers: { 'retry-after': '30' } };
    const started = performance.now();
    expect((await backend.call({ signal: open() }, get)).kind).toBe('unavailable');
    expect((await backend.call({ signal: open(), operation }, post)).kind).toBe('unknown');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(2);
  });

  it('answers unavailable for a repeatable write refused with 429 on every attempt', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry, dedupesByKey: true });
    server.fallback = { status: 429 };
    expect((await backend.call({ signal: open(), operation }, post)).kind).toBe('unavailable');
    expect(server.requests).toHaveLength(3);
  });
});

describe('refusals', () => {
  it('maps a listed 4xx to its code, message and status, without retrying', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry });
    server.script(
      { status: 404, body: { error: 'nope' } },
      { status: 409, body: { suggestion: 'Main St 1' } },
    );
    const rejections = {
      404: { code: 'ITEM_NOT_FOUND', message: 'No such item is visible to you.' },
      409: {
        code: 'ADDRESS_CORRECTED',
        message: (body: unknown) => `Did you mean ${(body as { suggestion: string }).suggestion}?`,
        resolution: 'Confirm the corrected address and call again.',
        status: 'requires_confirmation' as const,
      },
    };
    expect(await backend.call({ signal: open() }, { ...get, rejections })).toEqual({
      kind: 'rejected',
      status: 404,
      code: 'ITEM_NOT_FOUND',
      message: 'No such item is visible to you.',
      resolution: null,
      outcomeStatus: 'rejected',
      body: { error: 'nope' },
    });
    expect(await backend.call({ signal: open(), operation }, { ...post, rejections })).toMatchObject({
      kind: 'rejected',
      code: 'ADDRESS_CORRECTED',
      message: 'Did you mean Main St 1?',
      resolution: 'Confirm the corrected address and call again.',
      outcomeStatus: 'requires_confirmation',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('maps through a function that sees the status and body', async () => {
    const backend = createHttpBackend({ baseUrl: server.url });
    server.script({ status: 422, raw: 'plain text' });
    const rejections = (status: number, body: unknown) =>
      status === 422 && body === 'plain text'
        ? { code: 'INVALID_ITEM', message: 'The item is invalid.' }
        : null;
    expect(await backend.call({ signal: open() }, { ...get, rejections })).toMatchObject({
      kind: 'rejected',
      code: 'INVALID_ITEM',
    });
  });

  it('answers unexpected_status for an unmapped 4xx and for a redirect, sent once and not followed', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry });
    server.script({ status: 401 }, { status: 302, headers: { location: '/elsewhere' } });
    expect(await backend.call({ signal: open() }, get)).toEqual({ kind: 'unexpected_status', status: 401 });
    expect(await backend.call({ signal: open(), operation }, post)).toEqual({
      kind: 'unexpected_status',
      status: 302,
    });
    expect(server.requests.map((r) => r.url)).toEqual(['/items/1', '/items']);
  });
});

describe('2xx bodies against the response schema', () => {
  it('returns the parsed body, and an empty body as null', async () => {
    const backend = createHttpBackend({ baseUrl: server.url });
    server.script({ status: 200, body: { state: 'open', count: 2 } }, { status: 204 });
    expect(await backend.call({ signal: open() }, get)).toEqual({
      kind: 'ok',
      status: 200,
      body: { state: 'open', count: 2 },
    });
    const empty = { method: 'DELETE', path: '/items/1', response: z.null() } as const;
    expect(await backend.call({ signal: open(), operation }, empty)).toEqual({
      kind: 'ok',
      status: 204,
      body: null,
    });
  });

  it('names each broken field; a GET proves nothing applied, a POST may have applied; no retry', async () => {
    const backend = createHttpBackend({ baseUrl: server.url, retry: fastRetry });
    server.fallback = { status: 200, body: { count: 1.5 } };
    expect(await backend.call({ signal: open() }, get)).toEqual({
      kind: 'contract_violation',
      status: 200,
      problems: ['state: expected string, received undefined', 'count: expected int, received number'],
      mayHaveApplied: false,
    });
    expect(await backend.call({ signal: open(), operation }, post)).toMatchObject({
      kind: 'contract_violation',
      mayHaveApplied: true,
    });
    expect(server.requests).toHaveLength(2);
  });

  it('reports a body that is not JSON, and at most 20 problems', async () => {
    const backend = createHttpBackend({ baseUrl: server.url });
    const many = z.array(z.string());
    server.script(
      { status: 200, raw: '<html>' },
      { status: 200, body: Array.from({ length: 30 }, (_, i) => i) },
    );
    expect(await backend.call({ signal: open() }, get)).toMatchObject({
      kind: 'contract_violation',
      problems: ['(body): not valid JSON'],
    });
    const result = await backend.call({ signal: open() }, { ...get, response: many });
    expect(result.kind === 'contract_violation' && result.problems).toHaveLength(20);
    expect(result.kind === 'contract_violation' && result.problems[0]).toBe(
      '0: expected string, received number',
    );
  });
});
