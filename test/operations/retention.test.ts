import { simulationWorld } from '@toolgate/simulation';
import type { App, ShiftableClock } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { executions, testPrincipal } from '../support/test-domain.ts';
import { bankEffects, credit, newKey, startTestApp } from './harness.ts';

const alice = testPrincipal('alice');
const RETENTION_SECONDS = 60;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`retention on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };

    beforeAll(async () => {
      location = await target.create();
      app = await startTestApp(location.config, { retentionSeconds: RETENTION_SECONDS });
    });
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
    });

    it('publishes the retention period in the contract of write tools', () => {
      expect(app.registry.get('testing_credit_account')?.meta.idempotency).toMatchObject({
        retention_seconds: RETENTION_SECONDS,
      });
    });

    it('purges expired settled records but keeps unknown outcomes; an expired key starts afresh', async () => {
      const keptKey = newKey('keep');
      const args = { account: 'acc-old', amount: 1, idempotency_key: newKey('old') };
      const old = await credit(app, alice, args);
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const unknown = await credit(app, alice, { account: 'acc-u', amount: 1, idempotency_key: keptKey });
      expect(await app.operations.purge()).toBe(0);

      app.clock.shift((RETENTION_SECONDS + 1) * 1000);
      const fresh = await credit(app, alice, args);
      expect(fresh).toMatchObject({ status: 'completed', replayed: false });
      expect(fresh.operation_id).not.toBe(old.operation_id);
      expect(await executions(app.db, 'execute')).toHaveLength(3);

      app.clock.shift((RETENTION_SECONDS + 1) * 1000);
      expect(await app.operations.purge()).toBe(1);
      expect(await app.operations.store.findById(fresh.operation_id!)).toBeNull();
      expect(await app.operations.store.findById(unknown.operation_id!)).toMatchObject({
        status: 'outcome_unknown',
      });
      expect(await bankEffects(app)).toHaveLength(3);
    });

    it('one rule at the boundary: before expiry the key replays or conflicts; after it, any request starts afresh', async () => {
      const key = newKey('edge');
      const first = await credit(app, alice, { account: 'acc-e', amount: 2, idempotency_key: key });
      app.clock.shift(RETENTION_SECONDS * 1000 - 1_000);
      expect(await credit(app, alice, { account: 'acc-e', amount: 2, idempotency_key: key })).toMatchObject({
        replayed: true,
        operation_id: first.operation_id,
      });
      expect(await credit(app, alice, { account: 'acc-e', amount: 3, idempotency_key: key })).toMatchObject({
        status: 'failed',
        code: 'IDEMPOTENCY_CONFLICT',
      });
      app.clock.shift(2_000);
      const changed = await credit(app, alice, { account: 'acc-e', amount: 3, idempotency_key: key });
      expect(changed).toMatchObject({ status: 'completed', replayed: false });
      expect(changed.operation_id).not.toBe(first.operation_id);
      const effects = (await bankEffects(app)).filter((e) => e.ref === 'acc-e');
      expect(effects.map((e) => e.data.amount)).toEqual([2, 3]);
    });
  });
}
