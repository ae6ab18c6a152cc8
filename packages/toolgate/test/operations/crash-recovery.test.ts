import { setTimeout as sleep } from 'node:timers/promises';
import { EffectsLedger } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { ChildGateway } from '../../../../test/operations/child-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { executions } from '../../../../test/support/test-domain.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import type { OutcomeEnvelope } from '../../src/contract/envelope.ts';
import { OperationStore } from '../../src/operations/operation-store.ts';
import { openDatabase } from '../../src/store/open-database.ts';

const alice: TokenSubject = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
};

/** Slow enough back-off that a status check is observable, fast enough for a test; never gives up. */
const TUNING = {
  leaseGraceMs: 300,
  joinWaitMs: 200,
  reconcileIntervalMs: 25,
  reconcileBackoffMs: 25,
  reconcileBackoffMaxMs: 100,
  reconcileMaxAttempts: 10_000,
};

async function operationStatus(gateway: ChildGateway, operationId: string): Promise<OutcomeEnvelope> {
  return gateway.callTool(alice, 'operations_get', { operation_id: operationId });
}

async function waitForStatus(gateway: ChildGateway, operationId: string, status: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const view = await operationStatus(gateway, operationId);
    if (view.result?.status === status) return;
    if (Date.now() > deadline)
      throw new Error(`operation stayed ${String(view.result?.status)}, not ${status}`);
    await sleep(50);
  }
}

/** Polls `check` until it answers something other than null (20 s at most). */
async function eventually<T>(check: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not reached within 20 s');
    await sleep(25);
  }
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`a gateway killed mid-operation on ${target.dialect}`, () => {
    it('leaves the effect to reconciliation: unknown, then completed, and a retry adds no second effect', async () => {
      const location = await target.create();
      const { dataDir, databaseUrl } = location.config;
      const gateways: ChildGateway[] = [];
      const db = await openDatabase(location.config);
      try {
        const first = await ChildGateway.start({
          dataDir,
          databaseUrl,
          tuning: TUNING,
          timeoutMs: 1_500,
          pauseAfterApply: true,
        });
        gateways.push(first);
        const args = { account: 'acc-crash', amount: 4200, idempotency_key: 'crash-test-key-000001' };
        const lost = first.callTool(alice, 'testing_credit_account', args).catch((error: unknown) => error);
        const { operationId } = (await first.next('applied')) as { operationId: string; type: string };
        await first.kill();
        expect(await lost).toBeInstanceOf(Error);

        const store = new OperationStore(db);
        const ledger = new EffectsLedger(db);
        expect(await store.findById(operationId)).toMatchObject({ status: 'in_progress' });
        expect(await ledger.list({ system: 'test_bank' })).toHaveLength(1);

        // The restarted gateway cannot reach the bank's status query at first: the outcome stays unknown.
        const restarted = await ChildGateway.start({
          dataDir,
          databaseUrl,
          tuning: TUNING,
          statusQuery: 'down',
        });
        gateways.push(restarted);
        await waitForStatus(restarted, operationId, 'outcome_unknown');
        const meanwhile = await restarted.callTool(alice, 'testing_credit_account', args);
        expect(meanwhile).toMatchObject({
          status: 'outcome_unknown',
          replayed: true,
          operation_id: operationId,
        });
        // The reconciler asks the bank (and finds it down) on its own schedule: the record turns unknown
        // a pass before that first question, so wait for it instead of assuming it already happened.
        const asked = await eventually(async () => {
          const record = await store.findById(operationId);
          return (record?.reconcileAttempts ?? 0) > 0 ? record : null;
        });
        expect(asked).toMatchObject({ status: 'outcome_unknown' });

        await restarted.tell({ type: 'bank', statusQuery: 'answer' });
        await waitForStatus(restarted, operationId, 'completed');
        const retry = await restarted.callTool(alice, 'testing_credit_account', args);
        expect(retry).toMatchObject({
          status: 'completed',
          replayed: true,
          operation_id: operationId,
          result: { transfer_id: operationId, amount: 4200, applied: true },
        });
        expect(await ledger.list({ system: 'test_bank' })).toHaveLength(1);
        expect(await executions(db, 'execute')).toHaveLength(1);
        expect(await store.findById(operationId)).toMatchObject({ status: 'completed', attempts: 1 });
      } finally {
        await Promise.all(gateways.map((g) => g.stop()));
        await db.close();
        await location.dispose();
      }
    }, 90_000);
  });
}
