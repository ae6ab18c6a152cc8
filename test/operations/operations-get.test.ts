import { simulationOf, simulationWorld } from '@toolgate/simulation';
import type { App, ShiftableClock } from 'toolgate/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { testPrincipal } from '../support/test-domain.ts';
import { call, credit, newKey, startTestApp } from './harness.ts';

const alice = testPrincipal('alice');
const bob = testPrincipal('bob');
const operator = testPrincipal('olga', { actor: 'operator', scopes: ['operations:read'] });
const foreignAlice = testPrincipal('alice', { tenant: 'tenant-b' });
const foreignOperator = testPrincipal('oscar', {
  tenant: 'tenant-b',
  actor: 'operator',
  scopes: ['operations:read'],
});

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`operations_get on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App & { clock: ShiftableClock };

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

    const get = (who: typeof alice, operationId: string) =>
      call(app, who, 'operations_get', { operation_id: operationId });

    it("shows the caller's own operation with its stored outcome", async () => {
      const done = await credit(app, alice, { account: 'acc-g', amount: 4, idempotency_key: newKey('get') });
      const view = await get(alice, done.operation_id!);
      expect(view).toMatchObject({
        status: 'completed',
        result: {
          operation_id: done.operation_id,
          tool: 'testing_credit_account',
          contract_version: done.contract_version,
          status: 'completed',
          outcome: { ...done, replayed: false },
          delivery_attempts: 1,
          reconcile_attempts: 0,
          next_check_at: null,
          external_refs: { test_bank: done.operation_id },
        },
      });
    });

    it('shows an unknown outcome with its next check', async () => {
      simulationWorld(app.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
      const unknown = await credit(app, alice, {
        account: 'acc-g',
        amount: 4,
        idempotency_key: newKey('getu'),
      });
      const view = await get(alice, unknown.operation_id!);
      expect(view.result).toMatchObject({ status: 'outcome_unknown', outcome: { code: 'OUTCOME_UNKNOWN' } });
      expect(Date.parse(String(view.result?.next_check_at))).toBeGreaterThan(0);
      // The message is about the operation, not about the read having worked.
      expect(view.message).toBe(
        `It is not known yet whether operation ${unknown.operation_id} (testing_credit_account) took effect; the gateway is asking the owning system.`,
      );
      expect(view.resolution).toMatch(/^Do not start a new operation/);
    });

    it('says an operation in review awaits an operator, and a completed one that it completed', async () => {
      const slow = await startTestApp(location.config, { domain: { statusQuery: () => 'no_query' } });
      try {
        simulationWorld(slow.db).faults.arm({ target: 'test_bank', fault: 'drop_response_after_apply' });
        const unknown = await credit(slow, alice, {
          account: 'acc-r',
          amount: 4,
          idempotency_key: newKey('rev'),
        });
        slow.clock.shift(60_000);
        await slow.operations.reconciler.runOnce();
        const view = await call(slow, alice, 'operations_get', { operation_id: unknown.operation_id! });
        expect(view.result).toMatchObject({ status: 'needs_review' });
        expect(view.message).toMatch(
          /^It could not be established automatically whether operation op_\w+ \(testing_credit_account\) took effect; an operator is reviewing it\.$/,
        );
        expect(view.resolution).toMatch(/^Tell the user it awaits review\./);
      } finally {
        await slow.close();
      }
      const done = await credit(app, alice, { account: 'acc-g', amount: 4, idempotency_key: newKey('msg') });
      expect((await get(alice, done.operation_id!)).message).toBe(
        `Operation ${done.operation_id} (testing_credit_account) completed; outcome holds its result.`,
      );
    });

    it("answers another subject's or tenant's operation exactly like an unknown one", async () => {
      const done = await credit(app, alice, { account: 'acc-g', amount: 4, idempotency_key: newKey('hide') });
      const unknownId = 'op_00000000000000000000000000';
      const strip = (e: Awaited<ReturnType<typeof get>>) => ({
        ...e,
        message: e.message.replace(/op_\w+/, 'ID'),
      });
      const missing = strip(await get(bob, unknownId));
      expect(missing).toMatchObject({
        status: 'rejected',
        code: 'OPERATION_NOT_FOUND',
        category: 'not_found',
      });
      expect(strip(await get(bob, done.operation_id!))).toEqual(missing);
      expect(strip(await get(foreignAlice, done.operation_id!))).toEqual(missing);
      expect(strip(await get(foreignOperator, done.operation_id!))).toEqual(missing);
    });

    it('lets an operator see any operation of their own tenant', async () => {
      const done = await credit(app, alice, { account: 'acc-g', amount: 4, idempotency_key: newKey('oper') });
      expect(await get(operator, done.operation_id!)).toMatchObject({
        status: 'completed',
        result: { operation_id: done.operation_id },
      });
    });

    it('refuses a malformed id as invalid input', async () => {
      expect(await get(alice, 'op_123')).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT' });
    });
  });
}
