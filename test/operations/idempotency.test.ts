import { simulationOf, simulationWorld } from '@toolgate/simulation';
import type { App, ShiftableClock } from 'toolgate/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { executions, testPrincipal } from '../support/test-domain.ts';
import { bankEffects, call, credit, newKey, startTestApp } from './harness.ts';

const alice = testPrincipal('alice');
const bob = testPrincipal('bob');

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`idempotency on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };

    beforeAll(async () => {
      location = await target.create();
      app = await startTestApp(location.config, { domain: { delayMs: 30 } });
    });
    afterEach(async () => {
      await simulationOf(app).resetWorld();
    });
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
    });

    it('executes once for 50 concurrent deliveries of one key', async () => {
      const key = newKey('fifty');
      const args = { account: 'acc-50', amount: 500, idempotency_key: key };
      const answers = await Promise.all(Array.from({ length: 50 }, () => credit(app, alice, args)));
      expect(await executions(app.db, 'execute')).toHaveLength(1);
      expect(await bankEffects(app)).toHaveLength(1);
      const ids = new Set(answers.map((a) => a.operation_id));
      expect(ids.size).toBe(1);
      expect(answers.every((a) => a.status === 'completed')).toBe(true);
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
      const record = await app.operations.store.findByKey('tenant-a', 'alice', key);
      expect(record?.status).toBe('completed');
      expect(record?.attempts).toBe(1);
    });

    it('replays the first outcome with the same operation id', async () => {
      const args = { account: 'acc-r', amount: 7, idempotency_key: newKey('replay') };
      const first = await credit(app, alice, args);
      const again = await credit(app, alice, { ...args });
      expect(first).toMatchObject({ status: 'completed', replayed: false });
      expect(again).toEqual({ ...first, replayed: true });
      expect(await executions(app.db, 'execute')).toHaveLength(1);
      expect(await bankEffects(app)).toHaveLength(1);
    });

    it('does not let key order, whitespace or number spelling make a request different', async () => {
      const key = newKey('spelling');
      await credit(app, alice, { account: 'acc-s', amount: 10, idempotency_key: key });
      const reordered = await credit(
        app,
        alice,
        JSON.parse(`{"idempotency_key":"${key}",  "amount": 10.0, "account":"acc-s"}`),
      );
      expect(reordered).toMatchObject({ status: 'completed', replayed: true });
      expect(await executions(app.db, 'execute')).toHaveLength(1);
    });

    it('refuses a changed request under the same key and executes nothing', async () => {
      const key = newKey('conflict');
      const first = await credit(app, alice, { account: 'acc-c', amount: 100, idempotency_key: key });
      const changed = await credit(app, alice, { account: 'acc-c', amount: 101, idempotency_key: key });
      expect(changed).toMatchObject({
        status: 'failed',
        code: 'IDEMPOTENCY_CONFLICT',
        category: 'conflict',
        retryable: false,
        replayed: false,
        operation_id: first.operation_id,
      });
      expect(await executions(app.db)).toHaveLength(1);
      expect((await bankEffects(app)).map((e) => e.data.amount)).toEqual([100]);
    });

    it('never reserves a key for a dry run: the execution after it runs once and is no replay', async () => {
      const key = newKey('dry');
      const dry = await credit(app, alice, {
        account: 'acc-d',
        amount: 5,
        idempotency_key: key,
        dry_run: true,
      });
      expect(dry).toMatchObject({ status: 'validated', operation_id: null, replayed: false });
      expect(await app.operations.store.findByKey('tenant-a', 'alice', key)).toBeNull();
      const real = await credit(app, alice, {
        account: 'acc-d',
        amount: 5,
        idempotency_key: key,
        dry_run: false,
      });
      expect(real).toMatchObject({ status: 'completed', replayed: false });
      expect(real.operation_id).toMatch(/^op_/);
      expect(await executions(app.db, 'execute')).toHaveLength(1);
      expect(await executions(app.db, 'dry_run')).toHaveLength(1);
      expect(await bankEffects(app)).toHaveLength(1);
    });

    it('scopes keys to the principal: the same key from another subject is another operation', async () => {
      const key = newKey('scope');
      const a = await credit(app, alice, { account: 'acc-x', amount: 1, idempotency_key: key });
      const b = await credit(app, bob, { account: 'acc-x', amount: 1, idempotency_key: key });
      expect(b.replayed).toBe(false);
      expect(b.operation_id).not.toBe(a.operation_id);
      expect(await bankEffects(app)).toHaveLength(2);
      expect(await app.operations.store.findByKey('tenant-a', 'alice', key)).toMatchObject({
        id: a.operation_id,
        status: 'completed',
      });
      expect(await app.operations.store.findByKey('tenant-a', 'bob', key)).toMatchObject({
        id: b.operation_id,
        status: 'completed',
      });
    });

    it('takes the key from _meta and treats it as the same operation', async () => {
      const key = newKey('meta');
      const viaArg = await credit(app, alice, { account: 'acc-m', amount: 3, idempotency_key: key });
      const viaMeta = await credit(
        app,
        alice,
        { account: 'acc-m', amount: 3 },
        { 'io.toolgate/idempotency-key': key },
      );
      expect(viaMeta).toEqual({ ...viaArg, replayed: true });
      expect(await executions(app.db, 'execute')).toHaveLength(1);
      expect(await bankEffects(app)).toHaveLength(1);
    });

    it('refuses different keys in the argument and _meta before reserving anything', async () => {
      const key = newKey('argkey');
      const answer = await credit(
        app,
        alice,
        { account: 'acc-m', amount: 3, idempotency_key: key },
        { 'io.toolgate/idempotency-key': newKey('metakey') },
      );
      expect(answer).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT', operation_id: null });
      expect(await app.operations.store.findByKey('tenant-a', 'alice', key)).toBeNull();
      expect(await executions(app.db)).toHaveLength(0);
    });

    it('lets a failed execution (nothing changed) run again under the same operation', async () => {
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'unavailable' });
      const args = { account: 'acc-f', amount: 9, idempotency_key: newKey('failed') };
      const failed = await credit(app, alice, args);
      expect(failed).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE', retryable: true });
      expect(await bankEffects(app)).toHaveLength(0);
      const retried = await credit(app, alice, args);
      expect(retried).toMatchObject({
        status: 'completed',
        replayed: false,
        operation_id: failed.operation_id,
      });
      const record = await app.operations.store.findById(failed.operation_id!);
      expect(record).toMatchObject({ status: 'completed', attempts: 2 });
      expect(await bankEffects(app)).toHaveLength(1);
    });

    it('stores a rejection and replays it', async () => {
      simulationWorld(app.db).faults.arm({
        target: 'test_bank',
        fault: 'reject',
        params: { message: 'account closed' },
      });
      const args = { account: 'acc-closed', amount: 9, idempotency_key: newKey('rejected') };
      const rejected = await credit(app, alice, args);
      expect(rejected).toMatchObject({ status: 'rejected', code: 'CREDIT_REFUSED' });
      expect(await credit(app, alice, args)).toEqual({ ...rejected, replayed: true });
      expect(await executions(app.db, 'execute')).toHaveLength(1);
      expect(await bankEffects(app)).toHaveLength(0);
      expect(await app.operations.store.findById(rejected.operation_id!)).toMatchObject({
        status: 'rejected',
        attempts: 1,
        envelope: rejected,
      });
    });

    it('answers in_progress with the operation id when the first delivery outlasts the wait', async () => {
      const slow = await startTestApp(location.config, {
        domain: { delayMs: 600 },
        tuning: { joinWaitMs: 50 },
      });
      try {
        const args = { account: 'acc-slow', amount: 2, idempotency_key: newKey('slow') };
        const first = credit(slow, alice, args);
        await expect
          .poll(() => slow.operations.store.findByKey('tenant-a', 'alice', args.idempotency_key), {
            interval: 5,
          })
          .not.toBeNull();
        const second = await credit(slow, alice, args);
        expect(second).toMatchObject({
          status: 'in_progress',
          code: 'OPERATION_IN_PROGRESS',
          retryable: true,
        });
        const done = await first;
        expect(second.operation_id).toBe(done.operation_id);
        expect(await executions(slow.db, 'execute')).toHaveLength(1);
        expect(await bankEffects(slow)).toHaveLength(1);
      } finally {
        await slow.close();
      }
    });

    it('refuses a write for a caller without the scope before reserving anything', async () => {
      const key = newKey('forbidden');
      const outsider = testPrincipal('carol', { scopes: ['operations:read'] });
      const answer = await call(app, outsider, 'testing_credit_account', {
        account: 'a',
        amount: 1,
        idempotency_key: key,
      });
      expect(answer).toMatchObject({ status: 'failed', code: 'FORBIDDEN', operation_id: null });
      expect(await app.operations.store.findByKey('tenant-a', 'carol', key)).toBeNull();
      expect(await executions(app.db)).toHaveLength(0);
      expect(await bankEffects(app)).toHaveLength(0);
    });
  });
}
