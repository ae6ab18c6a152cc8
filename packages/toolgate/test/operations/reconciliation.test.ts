import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bankEffects, credit, newKey, startTestApp } from '../../../../test/operations/harness.ts';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import { executions, testPrincipal } from '../../../../test/support/test-domain.ts';
import type { App } from '../../src/app/create-app.ts';
import { requestFingerprint } from '../../src/contract/fingerprint.ts';
import { newOperationId } from '../../src/operations/operation-id.ts';
import type { ShiftableClock } from '../../src/time/clock.ts';

const alice = testPrincipal('alice');

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`unknown outcomes and reconciliation on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };
    let bankAnswers: 'answer' | 'down' | 'no_query' = 'answer';

    beforeAll(async () => {
      location = await target.create();
      // Back-off in minutes of shifted time, so that real time passing under load never makes a record due.
      app = await startTestApp(location.config, {
        domain: { statusQuery: () => bankAnswers },
        tuning: { reconcileBackoffMs: 60_000, reconcileBackoffMaxMs: 60_000 },
      });
    });
    afterEach(async () => {
      bankAnswers = 'answer';
      await simulationOf(app).resetWorld();
    });
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
    });

    /** Moves time past the reconciler's back-off and runs one pass. */
    async function reconcileNow() {
      app.clock.shift(120_000);
      return app.operations.reconciler.runOnce();
    }

    it('settles a lost response as completed from the bank, and a retry replays it with no second effect', async () => {
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const args = { account: 'acc-u', amount: 40, idempotency_key: newKey('unknown') };
      const unknown = await credit(app, alice, args);
      expect(unknown).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN', ok: false });
      expect(await credit(app, alice, args)).toMatchObject({ status: 'outcome_unknown', replayed: true });
      expect(await reconcileNow()).toMatchObject({ settled: 1 });
      const record = await app.operations.store.findById(unknown.operation_id!);
      expect(record).toMatchObject({ status: 'completed', reconcileAttempts: 1 });
      const retry = await credit(app, alice, args);
      expect(retry).toMatchObject({
        status: 'completed',
        replayed: true,
        operation_id: unknown.operation_id,
        result: { transfer_id: unknown.operation_id, amount: 40, applied: true },
      });
      expect(await bankEffects(app)).toHaveLength(1);
      expect(await executions(app.db, 'execute')).toHaveLength(1);
      const { body } = await app.metrics.exposition();
      expect(body).toMatch(
        /toolgate_operation_reconciliations_total\{tool="testing_credit_account",result="settled"\} [1-9]/,
      );
    });

    it('settles as rejected when the bank has no record of the operation', async () => {
      const slowBank = await startTestApp(location.config, { domain: { timeoutMs: 100 } });
      try {
        const args = { account: 'acc-t', amount: 1, idempotency_key: newKey('timeout') };
        simulationWorld(slowBank.db).faults.arm({ target: 'test_bank', fault: 'timeout' });
        const unknown = await credit(slowBank, alice, args);
        expect(unknown).toMatchObject({ status: 'outcome_unknown' });
        slowBank.clock.shift(1_000);
        expect(await slowBank.operations.reconciler.runOnce()).toMatchObject({ settled: 1 });
        expect(await credit(slowBank, alice, args)).toMatchObject({
          status: 'rejected',
          code: 'CREDIT_NOT_APPLIED',
          replayed: true,
        });
        expect(await bankEffects(slowBank)).toHaveLength(0);
      } finally {
        await slowBank.close();
      }
    });

    it('backs off while the bank cannot answer, then sends the record to review; an operator resolves it', async () => {
      bankAnswers = 'down';
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const args = { account: 'acc-r', amount: 12, idempotency_key: newKey('review') };
      const unknown = await credit(app, alice, args);
      const id = unknown.operation_id!;
      expect(await reconcileNow()).toMatchObject({ deferred: 1 });
      const deferred = await app.operations.store.findById(id);
      expect(deferred).toMatchObject({ status: 'outcome_unknown', reconcileAttempts: 1 });
      expect(deferred!.nextCheckAt).toBeGreaterThan(app.clock.now());
      expect(await app.operations.reconciler.runOnce()).toMatchObject({ deferred: 0, escalated: 0 });
      await reconcileNow();
      expect(await reconcileNow()).toMatchObject({ escalated: 1 });
      expect(await app.operations.store.findById(id)).toMatchObject({
        status: 'needs_review',
        reconcileAttempts: 3,
      });
      expect(await credit(app, alice, args)).toMatchObject({ status: 'outcome_unknown', replayed: true });
      expect((await app.operations.reviews.pending('tenant-a')).map((r) => r.id)).toEqual([id]);
      expect(await app.operations.reviews.pending('tenant-b')).toEqual([]);

      const resolved = await app.operations.reviews.resolve(
        {
          operationId: id,
          resolution: 'completed',
          note: 'bank statement shows it',
          operator: 'olga',
          now: app.clock.now(),
        },
        3600,
      );
      expect(resolved).toMatchObject({ ok: true, record: { status: 'completed' } });
      expect(await app.operations.reviews.history(id)).toMatchObject([
        { operator: 'olga', previous_status: 'needs_review', resolution: 'completed' },
      ]);
      expect(await credit(app, alice, args)).toMatchObject({
        status: 'completed',
        replayed: true,
        operation_id: id,
      });
      expect(await app.operations.reviews.pending()).toEqual([]);
      const again = await app.operations.reviews.resolve(
        {
          operationId: id,
          resolution: 'rejected',
          note: 'changed my mind',
          operator: 'olga',
          now: app.clock.now(),
        },
        3600,
      );
      expect(again).toEqual({ ok: false, reason: 'not_reviewable', status: 'completed' });
      expect(await bankEffects(app)).toHaveLength(1);
    });

    it('escalates straight to review when the destination has no status query', async () => {
      bankAnswers = 'no_query';
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const unknown = await credit(app, alice, {
        account: 'acc-e',
        amount: 1,
        idempotency_key: newKey('esc'),
      });
      expect(await reconcileNow()).toMatchObject({ escalated: 1 });
      const record = await app.operations.store.findById(unknown.operation_id!);
      expect(record).toMatchObject({ status: 'needs_review', reconcileNote: 'the bank has no status query' });
      const rejected = await app.operations.reviews.resolve(
        {
          operationId: record!.id,
          resolution: 'rejected',
          note: 'not on the statement',
          operator: 'olga',
          now: 1,
        },
        3600,
      );
      expect(rejected.ok && rejected.record.envelope).toMatchObject({
        status: 'rejected',
        code: 'REJECTED_IN_REVIEW',
        category: 'state',
      });
    });

    it('keeps a record awaiting review past its retention, and never executes its key again', async () => {
      bankAnswers = 'no_query';
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const args = { account: 'acc-k', amount: 3, idempotency_key: newKey('kept') };
      const unknown = await credit(app, alice, args);
      expect(await reconcileNow()).toMatchObject({ escalated: 1 });
      // Long past any retention: the outcome is still owed to someone, so the record stays.
      app.clock.shift(30 * 24 * 3600 * 1000);
      await app.operations.purge();
      expect(await app.operations.store.findById(unknown.operation_id!)).toMatchObject({
        status: 'needs_review',
      });
      expect(await credit(app, alice, args)).toMatchObject({
        status: 'outcome_unknown',
        replayed: true,
        operation_id: unknown.operation_id,
      });
      expect(await bankEffects(app)).toHaveLength(1);
      expect(await executions(app.db, 'execute')).toHaveLength(1);
    });

    it('turns a record abandoned past its lease into an unknown outcome and never re-executes it', async () => {
      const key = newKey('abandoned');
      const args = { account: 'acc-l', amount: 8, idempotency_key: key, dry_run: false };
      const tool = app.registry.get('testing_credit_account')!;
      const now = app.clock.now();
      const id = newOperationId(now);
      await app.operations.store.reserve({
        id,
        tenant: 'tenant-a',
        subject: 'alice',
        key,
        tool: tool.definition.name,
        contractVersion: tool.definition.version,
        fingerprint: requestFingerprint({
          tool: tool.definition.name,
          contractMajor: 1,
          mode: 'execute',
          args,
        }),
        contentHash: null,
        mode: 'execute',
        correlationId: 'corr-crashed',
        now,
        leaseExpiresAt: now + 1_000,
        expiresAt: now + 3_600_000,
      });
      app.clock.shift(2_000);
      const answer = await credit(app, alice, args);
      expect(answer).toMatchObject({ status: 'outcome_unknown', replayed: true, operation_id: id });
      expect(await executions(app.db)).toHaveLength(0);
      expect(await reconcileNow()).toMatchObject({ settled: 1 });
      expect(await credit(app, alice, args)).toMatchObject({
        status: 'rejected',
        code: 'CREDIT_NOT_APPLIED',
      });
      expect(await executions(app.db)).toHaveLength(0);
    });

    it('runs in the background: an unknown outcome settles without anyone calling', async () => {
      const background = await startTestApp(location.config, { backgroundJobs: true });
      try {
        simulationWorld(background.db).faults.arm({
          target: 'test_bank',
          fault: 'drop_response_after_apply',
        });
        const unknown = await credit(background, alice, {
          account: 'acc-b',
          amount: 3,
          idempotency_key: newKey('bg'),
        });
        await expect
          .poll(async () => (await background.operations.store.findById(unknown.operation_id!))?.status, {
            timeout: 3_000,
            interval: 20,
          })
          .toBe('completed');
      } finally {
        await background.close();
      }
    });
  });
}
