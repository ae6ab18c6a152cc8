import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppOnStore, appOnStore, bankEffects, newKey } from '../../../../test/operations/harness.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { executions, testDomain, testPrincipal } from '../../../../test/support/test-domain.ts';
import type { App } from '../../src/app/create-app.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { PrincipalRateLimiter } from '../../src/gateway/rate-limit-layer.ts';

const alice = testPrincipal('alice');
const bob = testPrincipal('bob');
const reader: Principal = { ...alice, subject: 'reader' };

describe('the per-principal token bucket', () => {
  test('allows a burst of N, then refills at N per second, with the wait to the next token', () => {
    let now = 0;
    const limiter = new PrincipalRateLimiter({ perPrincipal: 2 }, () => now);
    expect(limiter.takeToken(alice, 'read')).toBeNull();
    expect(limiter.takeToken(alice, 'read')).toBeNull();
    expect(limiter.takeToken(alice, 'read')).toMatchObject({ waitMs: 500 });
    expect(limiter.takeToken(bob, 'read')).toBeNull();
    now = 500;
    expect(limiter.takeToken(alice, 'read')).toBeNull();
  });

  test('a tool class with its own rate has its own bucket', () => {
    const limiter = new PrincipalRateLimiter(
      { perPrincipal: 100, perPrincipalByKind: { write: 1 } },
      () => 0,
    );
    expect(limiter.takeToken(alice, 'write')).toBeNull();
    expect(limiter.takeToken(alice, 'write')).not.toBeNull();
    expect(limiter.takeToken(alice, 'read')).toBeNull();
  });

  test('without a rate, no call is refused for its rate', () => {
    const limiter = new PrincipalRateLimiter({});
    for (let i = 0; i < 1_000; i++) expect(limiter.takeToken(alice, 'write')).toBeNull();
  });

  test('other requests take their weight from the same bucket; one above the burst leaves a debt', () => {
    let now = 0;
    const limiter = new PrincipalRateLimiter({ perPrincipal: 4 }, () => now);
    expect(limiter.takeRequest(alice, 2)).toBeNull();
    expect(limiter.takeToken(alice, 'read')).toBeNull();
    expect(limiter.takeRequest(alice, 2)).toMatchObject({ waitMs: 250 });
    now = 250;
    expect(limiter.takeRequest(alice, 16)).toMatchObject({ waitMs: 500 });
    now = 1_000;
    expect(limiter.takeRequest(alice, 16)).toBeNull();
    // 12 tokens in debt: the next call waits for 13 tokens at 4 per second.
    expect(limiter.takeToken(alice, 'read')).toMatchObject({ waitMs: 3_250 });
    expect(limiter.takeRequest(bob, 1)).toBeNull();
  });

  test('a spent reply-byte budget refuses tool calls and other requests until it refills', () => {
    let now = 0;
    const limiter = new PrincipalRateLimiter({ replyBytesPerSecondPerPrincipal: 1_000 }, () => now);
    expect(limiter.takeRequest(alice, 1)).toBeNull();
    limiter.chargeReplyBytes(alice, 3_000);
    expect(limiter.takeRequest(alice, 1)).toMatchObject({ waitMs: 2_000 });
    expect(limiter.takeToken(alice, 'read')).toMatchObject({ reason: 'over 1000 reply bytes per second' });
    expect(limiter.takeToken(bob, 'read')).toBeNull();
    now = 2_001;
    expect(limiter.takeToken(alice, 'read')).toBeNull();
  });

  test('caps writes in flight per principal; a released slot is given back once', () => {
    const limiter = new PrincipalRateLimiter({ writesInFlightPerPrincipal: 1 });
    const first = limiter.holdWrite(alice, 'key-1');
    expect(first.ok).toBe(true);
    expect(limiter.holdWrite(alice, 'key-2')).toMatchObject({ ok: false });
    expect(limiter.holdWrite(bob, 'key-2').ok).toBe(true);
    if (first.ok) {
      first.release();
      first.release();
    }
    const second = limiter.holdWrite(alice, 'key-2');
    expect(second.ok).toBe(true);
    expect(limiter.holdWrite(alice, 'key-3').ok).toBe(false);
  });

  test('deliveries of one key share its slot: the cap counts distinct keys', () => {
    const limiter = new PrincipalRateLimiter({ writesInFlightPerPrincipal: 2 });
    const holders = Array.from({ length: 10 }, () => limiter.holdWrite(alice, 'key-1'));
    expect(holders.every((h) => h.ok)).toBe(true);
    const other = limiter.holdWrite(alice, 'key-2');
    expect(other.ok).toBe(true);
    expect(limiter.holdWrite(alice, 'key-3')).toMatchObject({ ok: false });
    // The key's slot frees only when its last holder releases it.
    for (const holder of holders.slice(1)) if (holder.ok) holder.release();
    expect(limiter.holdWrite(alice, 'key-3').ok).toBe(false);
    if (holders[0]?.ok) holders[0].release();
    expect(limiter.holdWrite(alice, 'key-3').ok).toBe(true);
  });
});

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`RATE_LIMITED on ${target.dialect}`, () => {
    let suite: AppOnStore | undefined;
    let app: App;
    const credit = (who: Principal, label: string) =>
      app.gateway
        .call(
          {
            name: 'testing_credit_account',
            arguments: { account: 'acc-rl', amount: 1, idempotency_key: newKey(label) },
          },
          who,
        )
        .then((answer) => answer.envelope);

    beforeAll(async () => {
      suite = await appOnStore(target, {
        modules: [testDomain({ delayMs: 200 })],
        limits: { perPrincipal: 3, writesInFlightPerPrincipal: 2 },
      });
      app = suite.app;
    });
    afterAll(() => suite?.dispose());

    test('over the rate: failed / RATE_LIMITED with the wait, nothing executed, no key reserved', async () => {
      const answers = await Promise.all([1, 2, 3, 4].map((i) => credit(reader, `rl-${i}`)));
      const limited = answers.filter((a) => a.code === 'RATE_LIMITED');
      expect(limited.length).toBeGreaterThanOrEqual(1);
      for (const answer of limited) {
        expect(answer).toMatchObject({
          status: 'failed',
          category: 'rate_limit',
          retryable: true,
          operation_id: null,
        });
        expect(Number(answer.warnings.find((w) => w.code === 'RETRY_AFTER_MS')?.message)).toBeGreaterThan(0);
      }
      const done = answers.filter((a) => a.status === 'completed');
      expect(done.length + limited.length).toBe(4);
      const ran = (await executions(app.db)).filter((e) => e.mode === 'execute');
      expect(ran.length).toBe(done.length);
      expect((await bankEffects(app)).length).toBe(done.length);
      const records = await app.db.query<{ n: number }>(
        'SELECT COUNT(*) AS n FROM operations WHERE subject = ?',
        ['reader'],
      );
      expect(Number(records[0]?.n)).toBe(done.length);
    });

    test('the in-flight cap refuses a third concurrent write of one principal, not of another', async () => {
      const [a1, a2, a3, b1] = await Promise.all([
        credit(alice, 'if-a1'),
        credit(alice, 'if-a2'),
        credit(alice, 'if-a3'),
        credit(bob, 'if-b1'),
      ]);
      expect([a1?.status, a2?.status]).toEqual(['completed', 'completed']);
      expect(a3).toMatchObject({ status: 'failed', code: 'RATE_LIMITED' });
      expect(b1?.status).toBe('completed');
    });
  });
}
