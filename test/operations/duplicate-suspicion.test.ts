import { simulationOf, simulationWorld } from '@toolgate/simulation';
import type { App, ShiftableClock } from 'toolgate/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { executions, testPrincipal } from '../support/test-domain.ts';
import { bankEffects, call, newKey, startTestApp } from './harness.ts';

const alice = testPrincipal('alice');
const bob = testPrincipal('bob');

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`duplicate suspicion on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };
    const gift = (who: typeof alice, args: Record<string, unknown>) =>
      call(app, who, 'testing_send_gift', args);

    beforeAll(async () => {
      location = await target.create();
      app = await startTestApp(location.config);
    });
    afterEach(async () => {
      await simulationOf(app).resetWorld();
    });
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
    });

    it('asks for confirmation before a new key repeats a recent completed request, naming it', async () => {
      const content = { account: 'acc-gift', amount: 2500, memo: 'birthday' };
      const first = await gift(alice, { ...content, idempotency_key: newKey('gift1') });
      expect(first.status).toBe('completed');
      const key = newKey('gift2');
      const suspect = await gift(alice, {
        memo: 'birthday',
        amount: 2500,
        account: 'acc-gift',
        idempotency_key: key,
      });
      expect(suspect).toMatchObject({
        status: 'requires_confirmation',
        code: 'POSSIBLE_DUPLICATE',
        category: 'confirmation',
        operation_id: null,
      });
      expect(suspect.message).toContain(first.operation_id!);
      expect(suspect.resolution).toContain('confirm_duplicate');
      expect(await app.operations.store.findByKey('tenant-a', 'alice', key)).toBeNull();
      expect(await executions(app.db, 'execute')).toHaveLength(1);

      const confirmed = await gift(alice, { ...content, confirm_duplicate: true, idempotency_key: key });
      expect(confirmed).toMatchObject({ status: 'completed', replayed: false });
      expect(confirmed.operation_id).not.toBe(first.operation_id);
      expect(await bankEffects(app)).toHaveLength(2);
    });

    it('also suspects a new key while the earlier request has an unknown outcome', async () => {
      const content = { account: 'acc-lost', amount: 700 };
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const first = await gift(alice, { ...content, idempotency_key: newKey('lost1') });
      expect(first.status).toBe('outcome_unknown');
      const fresh = await gift(alice, { ...content, idempotency_key: newKey('lost2') });
      expect(fresh).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });
      expect(fresh.message).toContain(first.operation_id!);
      expect(fresh.message).toContain('outcome_unknown');
      expect(await bankEffects(app)).toHaveLength(1);
    });

    it('does not count the confirmation field as a difference, and replays a confirmed key', async () => {
      const content = { account: 'acc-gift', amount: 10 };
      await gift(alice, { ...content, confirm_duplicate: true, idempotency_key: newKey('giftc1') });
      const second = await gift(alice, { ...content, idempotency_key: newKey('giftc2') });
      expect(second.code).toBe('POSSIBLE_DUPLICATE');
      const key = newKey('giftc3');
      const confirmed = await gift(alice, { ...content, confirm_duplicate: true, idempotency_key: key });
      const replay = await gift(alice, { ...content, confirm_duplicate: true, idempotency_key: key });
      expect(replay).toEqual({ ...confirmed, replayed: true });
      expect(await bankEffects(app)).toHaveLength(2);
    });

    it('answers a retry of a key from its own record, even after a confirmed duplicate of it ran', async () => {
      const content = { account: 'acc-retry', amount: 42 };
      const firstKey = newKey('retry1');
      const first = await gift(alice, { ...content, idempotency_key: firstKey });
      const confirmed = await gift(alice, {
        ...content,
        confirm_duplicate: true,
        idempotency_key: newKey('retry2'),
      });
      expect(confirmed).toMatchObject({ status: 'completed', replayed: false });
      // The first answer was lost; its retry is the same request, not a third gift.
      const retry = await gift(alice, { ...content, idempotency_key: firstKey });
      expect(retry).toEqual({ ...first, replayed: true });
      // Its retry with other content is refused as a reused key, naming that key's own operation.
      const reused = await gift(alice, { ...content, amount: 43, idempotency_key: firstKey });
      expect(reused).toMatchObject({
        status: 'failed',
        code: 'IDEMPOTENCY_CONFLICT',
        operation_id: first.operation_id,
      });
      expect(await bankEffects(app)).toHaveLength(2);
      const audited = await app.operations.audit.list({
        tenant: 'tenant-a',
        operationId: first.operation_id!,
        limit: 10,
      });
      expect(audited.map((entry) => [entry.status, entry.code, entry.replayed])).toEqual([
        ['completed', null, false],
        ['completed', null, true],
        ['failed', 'IDEMPOTENCY_CONFLICT', false],
      ]);
    });

    it('treats different content, another principal, or an old operation as no duplicate', async () => {
      await gift(alice, { account: 'acc-gift', amount: 1, idempotency_key: newKey('gd1') });
      expect(
        (await gift(alice, { account: 'acc-gift', amount: 2, idempotency_key: newKey('gd2') })).status,
      ).toBe('completed');
      expect(
        (await gift(bob, { account: 'acc-gift', amount: 1, idempotency_key: newKey('gd3') })).status,
      ).toBe('completed');
      app.clock.shift(601_000);
      expect(
        (await gift(alice, { account: 'acc-gift', amount: 1, idempotency_key: newKey('gd4') })).status,
      ).toBe('completed');
    });

    it('leaves tools without the hook alone', async () => {
      const content = { account: 'acc-plain', amount: 5 };
      await call(app, alice, 'testing_credit_account', { ...content, idempotency_key: newKey('plain1') });
      const again = await call(app, alice, 'testing_credit_account', {
        ...content,
        idempotency_key: newKey('plain2'),
      });
      expect(again.status).toBe('completed');
    });
  });
}
