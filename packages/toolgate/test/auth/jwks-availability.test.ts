import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { JWKS_LIMITS, JWKS_TIMING } from '../../src/auth/jwks-key-set.ts';
import { type JwksGateway, startJwksGateway } from './jwks-gateway.ts';
import { type LocalIssuer, startLocalIssuer } from './local-issuer.ts';

const CONCURRENT = 40;

/** Moves the wall clock (Date only; timers stay real, so fetch timeouts still run in real time). */
const advanceClock = (ms: number) => vi.setSystemTime(Date.now() + ms);

describe('an external issuer whose JWKS is slow, hangs or changes', () => {
  let issuer: LocalIssuer;
  let gw: JwksGateway;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    issuer = await startLocalIssuer();
    await issuer.publish('k1');
    gw = await startJwksGateway(issuer);
  });
  afterEach(async () => {
    await gw.close();
    await issuer.close();
    vi.useRealTimers();
  });

  const callAll = async (tokens: string[]) => {
    const started = performance.now();
    const responses = await Promise.all(tokens.map((t) => gw.call(t)));
    return { responses, elapsedMs: performance.now() - started };
  };
  const freshTokens = (kid: string, n = CONCURRENT) =>
    Promise.all(Array.from({ length: n }, () => issuer.sign(kid, gw.url)));

  test('before any good fetch, a hanging JWKS answers 503 with Retry-After within the fetch timeout', async () => {
    issuer.hang = true;
    const { responses, elapsedMs } = await callAll(await freshTokens('k1'));
    expect(responses.map((r) => r.status)).toEqual(Array(CONCURRENT).fill(503));
    for (const response of responses) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(response.headers.get('www-authenticate')).toBeNull();
      expect(await response.json()).toMatchObject({ error: 'temporarily_unavailable' });
    }
    expect(elapsedMs).toBeLessThan(JWKS_TIMING.fetchTimeoutMs + 1_500);
    expect(issuer.stats).toMatchObject({ fetches: 1, maxInFlight: 1 });
    expect(gw.ledger.executions).toEqual({});
  });

  test('an answer larger than the cap, or with more keys than a set may hold, is a failed fetch: 503, nothing runs', async () => {
    const real = await (await fetch(issuer.jwksUrl)).text();
    // The real keys, padded past the cap with whitespace JSON allows.
    issuer.body = `${real.slice(0, -1)}${' '.repeat(JWKS_LIMITS.maxBodyBytes)}}`;
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(503);
    advanceClock(JWKS_TIMING.cooldownMs + 1_000);
    // The real keys among more than a set may hold.
    const filler = { kty: 'oct', k: 'c2VjcmV0', kid: 'filler' };
    const { keys } = JSON.parse(real) as { keys: unknown[] };
    issuer.body = JSON.stringify({ keys: [...keys, ...Array(JWKS_LIMITS.maxKeys).fill(filler)] });
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(503);
    expect(gw.ledger.executions).toEqual({});
    expect(issuer.stats.fetches).toBe(3);
    // Within both bounds, the same issuer's set verifies.
    advanceClock(JWKS_TIMING.cooldownMs + 1_000);
    issuer.body = null;
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
  });

  test('after a good fetch, valid tokens keep working while the JWKS hangs, with one fetch in flight', async () => {
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    issuer.hang = true;
    advanceClock((JWKS_TIMING.defaultMaxAgeSeconds + 60) * 1000);
    const { responses, elapsedMs } = await callAll(await freshTokens('k1'));
    expect(responses.map((r) => r.status)).toEqual(Array(CONCURRENT).fill(200));
    expect(elapsedMs).toBeLessThan(JWKS_TIMING.fetchTimeoutMs);
    expect(gw.ledger.executions).toEqual({ probe_echo: CONCURRENT + 1 });
    // The stale set was refetched once, in the background, and that fetch is still hanging.
    expect(issuer.stats).toMatchObject({ fetches: 2, maxInFlight: 1 });
  });

  test('a newly published key is accepted at once: its unknown kid refetches the set', async () => {
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    await issuer.publish('k2');
    advanceClock(JWKS_TIMING.cooldownMs + 1_000);
    const responses = await Promise.all((await freshTokens('k2', 10)).map((t) => gw.call(t)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(issuer.stats).toMatchObject({ fetches: 2, maxInFlight: 1 });
    expect(gw.ledger.executions).toEqual({ probe_echo: 11 });
  });

  test('an unknown kid while the JWKS hangs is 503, and known keys keep working', async () => {
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    await issuer.publish('k9');
    issuer.hang = true;
    advanceClock(JWKS_TIMING.cooldownMs + 1_000);
    const [unknown, known] = await Promise.all([
      gw.call(await issuer.sign('k9', gw.url)),
      gw.call(await issuer.sign('k1', gw.url)),
    ]);
    expect(unknown.status).toBe(503);
    expect(unknown.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(known.status).toBe(200);
    expect(gw.ledger.executions).toEqual({ probe_echo: 2 });
  });

  test('Cache-Control max-age decides when the set is refreshed; a removed key is refused after it', async () => {
    issuer.cacheControl = 'public, max-age=60';
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    issuer.remove('k1');
    await issuer.publish('k2');

    advanceClock(40_000);
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    expect(issuer.stats.fetches).toBe(1);

    advanceClock(30_000);
    // Past max-age: this call is still checked against the set in hand while the refresh runs.
    await gw.call(await issuer.sign('k1', gw.url));
    await vi.waitFor(() => expect(issuer.stats).toMatchObject({ fetches: 2, inFlight: 0 }));
    await sleep(20);
    const removed = await gw.call(await issuer.sign('k1', gw.url));
    expect(removed.status).toBe(401);
    expect(removed.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await removed.json()).toMatchObject({ error_description: 'no key matches the token' });
    expect((await gw.call(await issuer.sign('k2', gw.url))).status).toBe(200);
  });

  test.each([
    ['no-store', JWKS_TIMING.minMaxAgeSeconds],
    ['max-age=0', JWKS_TIMING.minMaxAgeSeconds],
    ['max-age=31536000', JWKS_TIMING.maxMaxAgeSeconds],
    ['max-age=600, no-cache', JWKS_TIMING.minMaxAgeSeconds],
  ])('Cache-Control %s is held to the bounds: refreshed after %i s, not before', async (header, seconds) => {
    issuer.cacheControl = header;
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    advanceClock((seconds - 1) * 1000);
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    expect(issuer.stats.fetches).toBe(1);
    advanceClock(2_000);
    expect((await gw.call(await issuer.sign('k1', gw.url))).status).toBe(200);
    await vi.waitFor(() => expect(issuer.stats).toMatchObject({ fetches: 2, inFlight: 0 }));
  });
});
