import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShiftableClock } from '../../src/app/clock.ts';
import type { App } from '../../src/app/create-app.ts';
import { reviewOperations } from '../../src/cli/operations-review.ts';
import { simulationWorld } from '../../src/external/simulation-world.ts';
import { type StoreLocation, storeTargets } from '../store/store-targets.ts';
import { testPrincipal } from '../support/test-domain.ts';
import { credit, newKey, startTestApp } from './harness.ts';

const alice = testPrincipal('alice');

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`toolgate operations review on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };

    beforeAll(async () => {
      location = await target.create();
      app = await startTestApp(location.config, { domain: { statusQuery: () => 'no_query' } });
    });
    afterEach(async () => {
      await app.resetWorld();
    });
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
    });

    async function operationNeedingReview(): Promise<{ id: string; args: Record<string, unknown> }> {
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const args = { account: 'acc-cli', amount: 77, idempotency_key: newKey('cli') };
      const unknown = await credit(app, alice, args);
      app.clock.shift(1_000);
      await app.operations.reconciler.runOnce();
      return { id: unknown.operation_id!, args };
    }

    async function review(input: Parameters<typeof reviewOperations>[1]) {
      const lines: string[] = [];
      const code = await reviewOperations(app.db, input, (line) => lines.push(line));
      return { code, output: lines.join('\n') };
    }

    it('lists the operations that need review, by tenant', async () => {
      const { id } = await operationNeedingReview();
      const listed = await review({ json: true });
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.output)).toMatchObject([
        {
          operation_id: id,
          tenant: 'tenant-a',
          subject: 'alice',
          tool: 'testing_credit_account',
          status: 'needs_review',
        },
      ]);
      expect((await review({ tenant: 'tenant-a' })).output).toContain(id);
      expect((await review({ tenant: 'tenant-b' })).output).toBe('No operations need review.');
    });

    it('records a resolution that the next retry replays, and refuses a second one', async () => {
      const { id, args } = await operationNeedingReview();
      const resolved = await review({
        resolve: id,
        as: 'rejected',
        note: 'not on the bank statement',
        operator: 'olga',
      });
      expect(resolved).toEqual({ code: 0, output: `Resolved ${id} as rejected.` });
      expect(await app.operations.reviews.history(id)).toMatchObject([
        {
          operator: 'olga',
          resolution: 'rejected',
          note: 'not on the bank statement',
          previous_status: 'needs_review',
        },
      ]);
      expect(await credit(app, alice, args)).toMatchObject({
        status: 'rejected',
        code: 'REJECTED_IN_REVIEW',
        replayed: true,
        operation_id: id,
      });
      const again = await review({ resolve: id, as: 'completed', note: 'second thoughts', operator: 'olga' });
      expect(again.code).toBe(1);
      expect(await app.operations.reviews.history(id)).toHaveLength(1);
    });

    it('refuses incomplete or malformed resolutions without changing anything', async () => {
      const { id } = await operationNeedingReview();
      const bad = await review({ resolve: id, as: 'maybe', note: '', operator: 'olga' });
      expect(bad.code).toBe(2);
      expect(bad.output).toContain('--as');
      expect(bad.output).toContain('--note');
      expect(
        (
          await review({
            resolve: 'op_00000000000000000000000000',
            as: 'completed',
            note: 'x y z',
            operator: 'o',
          })
        ).code,
      ).toBe(1);
      expect(await app.operations.store.findById(id)).toMatchObject({ status: 'needs_review' });
    });
  });
}
