import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { credit, newKey, startTestApp } from '../../../../test/operations/harness.ts';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import { testPrincipal } from '../../../../test/support/test-domain.ts';
import type { App } from '../../src/app/create-app.ts';
import { ReconcileQueue } from '../../src/operations/reconcile-queue.ts';
import type { ShiftableClock } from '../../src/time/clock.ts';

const alice = testPrincipal('alice');

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`reconcile queue on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };
    let queue: ReconcileQueue;

    beforeAll(async () => {
      location = await target.create();
      app = await startTestApp(location.config);
      queue = new ReconcileQueue(app.db);
    });
    afterEach(async () => {
      await simulationOf(app).resetWorld();
    });
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
    });

    async function unknownOperations(count: number): Promise<string[]> {
      simulationWorld(app.db).faults.arm({
        target: 'test_bank',
        fault: 'drop_response_after_apply',
        times: count,
      });
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const answer = await credit(app, alice, {
          account: 'acc-q',
          amount: i + 1,
          idempotency_key: newKey('q'),
        });
        ids.push(answer.operation_id!);
      }
      return ids;
    }

    it('hands each due record to one claim: a claim pushes its next check past the claim period', async () => {
      const ids = await unknownOperations(3);
      const now = app.clock.now() + 1_000;
      const first = await queue.claimDue(now, 2, now + 60_000);
      const second = await queue.claimDue(now, 10, now + 60_000);
      expect(first).toHaveLength(2);
      expect(second.map((r) => r.id)).toEqual(ids.filter((id) => !first.some((r) => r.id === id)));
      expect(await queue.claimDue(now, 10, now + 60_000)).toEqual([]);
      expect(await queue.claimDue(now + 61_000, 10, now + 120_000)).toHaveLength(3);
    });

    it('never lets a reconciliation overwrite an outcome that was already settled', async () => {
      const [id] = await unknownOperations(1);
      const envelope = (await app.operations.store.findById(id!))!.envelope!;
      expect(await queue.settle(id!, 'completed', { ...envelope, status: 'completed' }, 1, 2)).toBe(true);
      expect(await queue.settle(id!, 'rejected', { ...envelope, status: 'rejected' }, 1, 2)).toBe(false);
      expect(await queue.defer(id!, 'late', 1, 2)).toBe(false);
      expect(await app.operations.store.findById(id!)).toMatchObject({ status: 'completed' });
    });

    it.runIf(target.dialect === 'postgres')(
      'skips rows another process holds instead of waiting for them',
      async () => {
        const ids = await unknownOperations(2);
        const now = app.clock.now() + 1_000;
        let release: () => void = () => undefined;
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        let locked: () => void = () => undefined;
        const isLocked = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const holder = app.db.transaction(async (tx) => {
          await tx.query('SELECT id FROM operations WHERE id = ? FOR UPDATE', [ids[0]]);
          locked();
          await released;
        });
        await isLocked;
        try {
          const claimed = await Promise.race([
            queue.claimDue(now, 10, now + 60_000),
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error('claim waited for a lock')), 2_000),
            ),
          ]);
          expect(claimed.map((r) => r.id)).toEqual([ids[1]]);
        } finally {
          release();
          await holder;
        }
        expect((await queue.claimDue(now, 10, now + 60_000)).map((r) => r.id)).toEqual([ids[0]]);
      },
    );
  });
}
