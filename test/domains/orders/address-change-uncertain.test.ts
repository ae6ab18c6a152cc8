import { setTimeout as sleep } from 'node:timers/promises';
import { simulationHooksOf, simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADDRESS_SAMPLES } from '../../../packages/domains/src/orders/demo-orders.ts';
import {
  newKey,
  type OrdersHarness,
  orderId,
  startOrders,
} from '../../../packages/domains/test/orders/orders-app.ts';
import {
  findTenantOperation,
  operationView,
} from '../../../packages/toolgate/src/operator/operation-listing.ts';
import { resolveAsOperator } from '../../support/operator-review.ts';
import { storeTargets } from '../../support/store-targets.ts';

const ALICE = 'acme-customer-alice';
const CHANGE = 'orders_change_unshipped_address';
const NEW_ADDRESS = ADDRESS_SAMPLES.clean_us!;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `orders address change with an uncertain warehouse on ${target.dialect}`,
    () => {
      let h: OrdersHarness;
      beforeAll(async () => {
        h = await startOrders(target);
      });
      afterAll(async () => {
        await h?.close();
      });
      beforeEach(async () => {
        await simulationOf(h.app).resetWorld();
      });

      const change = (id: string, version: number, key: string, address: object = NEW_ADDRESS) =>
        h.call(ALICE, CHANGE, {
          order_id: id,
          expected_order_version: version,
          new_address: address,
          idempotency_key: key,
        });
      const operation = async (operationId: string | null) =>
        (await h.call(ALICE, 'operations_get', { operation_id: operationId })).result as {
          status: string;
          outcome: { status: string; code: string | null; result: unknown } | null;
        };
      const updates = () => h.effects('warehouse', 'address_update_applied');

      it('operations_get shows an operator no more of the address than the operator API; the owner sees its own', async () => {
        const id = orderId('alice-editable');
        const { version } = await h.order(id);
        const key = newKey();
        const done = await change(id, version, key);
        expect(done).toMatchObject({ status: 'completed', result: { confirmed_address: NEW_ADDRESS } });
        expect((await h.order(id)).address).toEqual(NEW_ADDRESS);
        const street = NEW_ADDRESS.address_line_1;
        const seen = await h.call('acme-operator-olivia', 'operations_get', {
          operation_id: done.operation_id,
        });
        expect(seen.status).toBe('completed');
        expect(JSON.stringify(seen)).not.toContain(street);
        expect((seen.result as { outcome: unknown }).outcome).toMatchObject({
          status: 'completed',
          code: null,
          result: {
            order_id: id,
            order_version: version + 1,
            fulfilment_state: 'address_change_allowed',
            suggested_address: null,
            withheld: ['confirmed_address', 'corrected_fields'],
          },
        });
        // The customer polling its own operation learns what was done, as a replay would tell it.
        const own = await h.call(ALICE, 'operations_get', { operation_id: done.operation_id });
        expect((own.result as { outcome: unknown }).outcome).toMatchObject({
          status: 'completed',
          result: { confirmed_address: NEW_ADDRESS },
        });
        const listed = operationView((await findTenantOperation(h.app.db, 'acme', done.operation_id!))!);
        expect(JSON.stringify(listed)).not.toContain(street);
        expect(listed.request).toMatchObject({ order_id: id, withheld: ['new_address'] });
        // Its caller still gets the whole stored outcome by retrying with the same key.
        const replayed = await change(id, version, key);
        expect(replayed).toMatchObject({ replayed: true, result: { confirmed_address: NEW_ADDRESS } });
      });

      it("an operator's decision on a change left unknown releases the order, one way or the other", async () => {
        const review = (operationId: string, as: 'completed' | 'rejected') =>
          resolveAsOperator(h.app, operationId, as, 'checked with the warehouse');
        const id = orderId('alice-editable');
        const before = await h.order(id);
        for (const [as, fault] of [
          ['rejected', 'timeout'],
          ['completed', 'drop_response_after_apply'],
        ] as const) {
          simulationWorld(h.app.db).faults.arm({
            target: 'warehouse',
            fault,
            match: { action: 'apply_address_update' },
          });
          const { version } = await h.order(id);
          const lost = await change(id, version, newKey());
          expect(lost.status).toBe('outcome_unknown');
          expect((await h.order(id)).pending_change_id).toBe(lost.operation_id);
          expect(await review(lost.operation_id!, as)).toMatchObject({ kind: 'resolved', hook: 'ran' });
          const after = await h.order(id);
          expect(after.pending_change_id).toBeNull();
          expect(after.address).toEqual(as === 'completed' ? NEW_ADDRESS : before.address);
          const read = await h.call(ALICE, 'orders_get', { order_id: id });
          expect(read.result).toMatchObject({
            pending_address_change: null,
            address_change: { tool: 'orders_change_unshipped_address' },
          });
        }
      });

      it('a lost warehouse answer is outcome_unknown, reconciled to completed, replayed, with one warehouse update', async () => {
        const id = orderId('alice-editable');
        const before = await h.order(id);
        const key = newKey();
        simulationWorld(h.app.db).faults.arm({
          target: 'warehouse',
          fault: 'drop_response_after_apply',
          match: { action: 'apply_address_update' },
        });
        const lost = await change(id, 3, key);
        expect(lost).toMatchObject({
          ok: false,
          status: 'outcome_unknown',
          code: 'OUTCOME_UNKNOWN',
          retryable: true,
        });
        expect(lost.resolution).toContain('operations_get');
        expect(await updates()).toHaveLength(1);
        // Meanwhile the order keeps its previous address, with the change pending.
        expect(await h.order(id)).toEqual({ ...before, pending_change_id: lost.operation_id });
        const read = await h.call(ALICE, 'orders_get', { order_id: id });
        expect(read.result).toMatchObject({
          pending_address_change: { operation_id: lost.operation_id },
          address_change: { tool: null },
        });
        const impatient = await change(id, 3, newKey());
        expect(impatient).toMatchObject({ status: 'rejected', code: 'ADDRESS_CHANGE_IN_PROGRESS' });
        const conflicting = await change(id, 3, key, ADDRESS_SAMPLES.suggested_us!);
        expect(conflicting).toMatchObject({ status: 'failed', code: 'IDEMPOTENCY_CONFLICT' });
        const replayedUnknown = await change(id, 3, key);
        expect(replayedUnknown).toMatchObject({
          status: 'outcome_unknown',
          replayed: true,
          operation_id: lost.operation_id,
        });

        await h.reconcile();
        const settled = await operation(lost.operation_id);
        expect(settled.status).toBe('completed');
        expect(settled.outcome).toMatchObject({
          status: 'completed',
          result: { order_version: 4, confirmed_address: NEW_ADDRESS },
        });
        expect(await h.order(id)).toEqual({
          ...before,
          version: 4,
          address: NEW_ADDRESS,
          pending_change_id: null,
        });
        const retry = await change(id, 3, key);
        expect(retry).toMatchObject({ status: 'completed', replayed: true, operation_id: lost.operation_id });
        expect(await updates()).toHaveLength(1);
      });

      it('a late warehouse answer lands after the call gave up; reconciliation finds it and applies nothing twice', async () => {
        const id = orderId('alice-editable');
        const key = newKey();
        simulationWorld(h.app.db).faults.arm({
          target: 'warehouse',
          fault: 'delay_ms',
          params: { ms: 700 },
          match: { action: 'apply_address_update' },
        });
        const late = await change(id, 3, key);
        expect(late.status).toBe('outcome_unknown');
        expect(await updates()).toHaveLength(0);
        await sleep(700);
        expect(await updates()).toHaveLength(1);
        await h.reconcile();
        expect((await operation(late.operation_id)).status).toBe('completed');
        expect(await h.order(id)).toMatchObject({
          version: 4,
          address: NEW_ADDRESS,
          pending_change_id: null,
        });
        expect(await updates()).toHaveLength(1);
      });

      it('an update that never reached the warehouse is sent again by reconciliation under the same operation id', async () => {
        const id = orderId('alice-editable');
        simulationWorld(h.app.db).faults.arm({
          target: 'warehouse',
          fault: 'timeout',
          match: { action: 'apply_address_update' },
        });
        const lost = await change(id, 3, newKey());
        expect(lost.status).toBe('outcome_unknown');
        expect(await updates()).toHaveLength(0);
        simulationWorld(h.app.db).faults.arm({
          target: 'warehouse',
          fault: 'unavailable',
          match: { action: 'get_address_update' },
        });
        await h.reconcile();
        expect((await operation(lost.operation_id)).status).toBe('outcome_unknown');
        expect((await h.order(id)).pending_change_id).toBe(lost.operation_id);
        await h.reconcile();
        expect((await operation(lost.operation_id)).status).toBe('completed');
        const applied = await updates();
        expect(applied).toHaveLength(1);
        expect(applied[0]!.requestId).toBe(lost.operation_id);
        expect(await h.order(id)).toMatchObject({
          version: 4,
          address: NEW_ADDRESS,
          pending_change_id: null,
        });
      });

      it('if the warehouse locks the order before the lost update arrives, reconciliation settles it rejected', async () => {
        const id = orderId('alice-editable');
        const before = await h.order(id);
        simulationWorld(h.app.db).faults.arm({
          target: 'warehouse',
          fault: 'timeout',
          match: { action: 'apply_address_update' },
        });
        const lost = await change(id, 3, newKey());
        expect(lost.status).toBe('outcome_unknown');
        await simulationHooksOf(h.app.modules[0]!)!.simulate!('warehouse', 'lock_order', { order_id: id });
        await h.reconcile();
        const settled = await operation(lost.operation_id);
        expect(settled.status).toBe('rejected');
        expect(settled.outcome).toMatchObject({ status: 'rejected', code: 'WAREHOUSE_HANDOFF_STARTED' });
        expect(await h.order(id)).toEqual({
          ...before,
          state: 'locked_for_warehouse',
          version: 4,
          pending_change_id: null,
        });
        expect(await updates()).toHaveLength(0);
      });
    },
  );
}
