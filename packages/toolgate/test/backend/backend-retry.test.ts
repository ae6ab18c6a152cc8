import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BackendServer, startBackendServer } from '../../../../test/backend/backend-server.ts';
import { parseRetryAfter } from '../../src/backend/backend-failure.ts';
import { resolveRetryPolicy, retryDelayMs, waitForRetry } from '../../src/backend/backend-retry.ts';
import { createHttpBackend } from '../../src/backend/http-backend.ts';

const item = z.strictObject({ state: z.string() });
const get = { method: 'GET', path: '/items/1', response: item } as const;
const operation = { id: 'op_01JTESTOPERATION0000000004' };

describe('back-off arithmetic', () => {
  const policy = resolveRetryPolicy({ attempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 });

  it('draws full jitter under min(maxDelayMs, base * 2^retry)', () => {
    expect(retryDelayMs(policy, 0, null, null, 0, () => 0.999)).toBe(99);
    expect(retryDelayMs(policy, 3, null, null, 0, () => 0.5)).toBe(400);
    expect(retryDelayMs(policy, 8, null, null, 0, () => 0.999)).toBe(999);
    expect(retryDelayMs(policy, 2, null, null, 0, () => 0)).toBe(0);
  });

  it('takes Retry-After when it fits; refuses a wait longer than maxDelayMs or reaching the deadline', () => {
    expect(retryDelayMs(policy, 0, 700, null, 0)).toBe(700);
    expect(retryDelayMs(policy, 0, 1_500, null, 0)).toBeNull();
    expect(retryDelayMs(policy, 0, 700, 1_000, 500)).toBeNull();
    expect(retryDelayMs(policy, 0, null, 1_000, 999, () => 0.5)).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:03 GMT', now)).toBe(3_000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('fills defaults: 3 attempts, 50 ms base, 1 s ceiling', () => {
    expect(resolveRetryPolicy()).toEqual({ attempts: 3, baseDelayMs: 50, maxDelayMs: 1_000 });
  });

  it('ends a wait at once when the signal aborts', async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = waitForRetry(10_000, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await waiting).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await waitForRetry(10_000, controller.signal)).toBe(false);
    expect(await waitForRetry(5, new AbortController().signal)).toBe(true);
  });
});

describe('attempts within the caller budget (real HTTP)', () => {
  let server: BackendServer;
  beforeEach(async () => {
    server = await startBackendServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('makes exactly `attempts` attempts', async () => {
    server.fallback = { status: 500 };
    const backend = createHttpBackend({
      baseUrl: server.url,
      retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 },
    });
    expect((await backend.call({ signal: new AbortController().signal }, get)).kind).toBe('unavailable');
    expect(server.requests).toHaveLength(4);
  });

  it('stops waiting for a retry as soon as the caller aborts', async () => {
    server.fallback = { status: 503, headers: { 'retry-after': '5' } };
    const backend = createHttpBackend({ baseUrl: server.url, retry: { attempts: 3, maxDelayMs: 10_000 } });
    const controller = new AbortController();
    const pending = backend.call({ signal: controller.signal }, get);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const abortedAt = performance.now();
    controller.abort();
    expect((await pending).kind).toBe('unavailable');
    expect(performance.now() - abortedAt).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it('cuts an attempt in flight when the caller aborts: a write is unknown, sent once', async () => {
    server.fallback = { hang: true };
    const backend = createHttpBackend({ baseUrl: server.url, dedupesByKey: true });
    const controller = new AbortController();
    const pending = backend.call(
      { signal: controller.signal, operation },
      { method: 'POST', path: '/items', body: {}, response: item },
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    const abortedAt = performance.now();
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('cancelled') });
    expect(performance.now() - abortedAt).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when the caller has already aborted', async () => {
    const backend = createHttpBackend({ baseUrl: server.url });
    const controller = new AbortController();
    controller.abort();
    const result = await backend.call({ signal: controller.signal, operation }, { ...get, method: 'DELETE' });
    expect(result.kind).toBe('unavailable');
    expect(server.requests).toHaveLength(0);
  });

  it('gives an attempt only what remains before the deadline, and starts none after it', async () => {
    server.fallback = { hang: true };
    const backend = createHttpBackend({
      baseUrl: server.url,
      retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 5 },
    });
    const started = performance.now();
    const signal = new AbortController().signal;
    const result = await backend.call({ signal, deadline: Date.now() + 300 }, get);
    const elapsed = performance.now() - started;
    expect(result.kind).toBe('unavailable');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1_500);
    expect(server.requests).toHaveLength(1);
  });
});
