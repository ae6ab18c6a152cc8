import { simulationWorld } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { resolveAsOperator } from '../../../../test/support/operator-review.ts';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { ADDRESS_SAMPLES, demoId } from '../../src/orders/demo-orders.ts';
import { createOrdersDomain } from '../../src/orders/orders-domain.ts';
import { newKey, orderId } from './orders-app.ts';

const SAM = 'acme-support-sam';
const ALICE = 'acme-customer-alice';
const REDIRECT = 'shipments_request_redirect';
const US = ADDRESS_SAMPLES.clean_us!;
const IN_TRANSIT = orderId('alice-in-transit');
const SHIPMENT = demoId('shp_', 'alice-in-transit');

/**
 * Seed 000: an unknown outcome is reconciled before anything creates a new operation. A redirect whose
 * carrier answer was lost keeps the parcel from a second request (under any key) until it settles, and
 * orders_get shows it the way it shows a pending address change.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `a redirect while an earlier one is unknown, on ${target.dialect}`,
    () => {
      const on = gatewayOnStore(target, {
        modules: [createOrdersDomain({ carrierWaitMs: 300, warehouseWaitMs: 300 })],
        testApi: true,
      });
      const { clock } = on;

      const redirect = (key = newKey('redirect'), order = IN_TRANSIT) =>
        on.gw.callTool(SAM, REDIRECT, { order_id: order, new_address: US, idempotency_key: key });
      const readOrder = async (order = IN_TRANSIT) =>
        (await on.gw.callTool(SAM, 'orders_get', { order_id: order })).result!;
      const requested = () =>
        simulationWorld(on.gw.app.db).ledger.list({ system: 'carrier', action: 'redirect_requested' });
      const requestRows = () =>
        on.gw.app.db.query<{ request_id: string; status: string }>(
          'SELECT request_id, status FROM shipment_redirect_requests WHERE order_id = ? ORDER BY created_at, request_id',
          [IN_TRANSIT],
        );
      const loseNextSubmit = () =>
        simulationWorld(on.gw.app.db).faults.arm({
          target: 'carrier',
          fault: 'timeout',
          match: { action: 'submit_redirect' },
        });
      const reconcile = async () => {
        clock.shift(10 * 60_000);
        await on.gw.app.operations.reconciler.runOnce();
      };

      it('a new key is refused while the first request is unknown; the carrier gets one request, sent again by reconciliation', async () => {
        loseNextSubmit();
        const first = await redirect();
        expect(first).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
        const firstOp = first.operation_id!;

        expect(await readOrder()).toMatchObject({
          pending_redirect: { operation_id: firstOp, status: 'unconfirmed' },
          address_change: { tool: null },
        });
        expect(((await readOrder()).address_change as { reason: string }).reason).toContain(firstOp);

        const second = await redirect();
        expect(second).toMatchObject({
          ok: false,
          status: 'rejected',
          code: 'REDIRECT_IN_PROGRESS',
          category: 'conflict',
          retryable: false,
          result: null,
        });
        expect(second.message).toContain(firstOp);
        expect(second.resolution).toContain(`operations_get with operation_id ${firstOp}`);
        // Nothing of the refused request exists anywhere: no record, nothing at the carrier.
        expect(await requestRows()).toEqual([{ request_id: firstOp, status: 'sending' }]);
        expect(await requested()).toEqual([]);

        await reconcile();
        const settled = await on.gw.callTool(SAM, 'operations_get', { operation_id: firstOp });
        expect(settled.result).toMatchObject({ status: 'submitted' });
        expect((await requested()).map((e) => e.requestId)).toEqual([firstOp]);
        expect(await readOrder()).toMatchObject({
          pending_redirect: { operation_id: firstOp, status: 'submitted' },
        });

        // Still undecided by the carrier: refused here, without asking the carrier again.
        const third = await redirect();
        expect(third).toMatchObject({ status: 'rejected', code: 'REDIRECT_ALREADY_REQUESTED' });
        expect(third.resolution).toContain(firstOp);
        expect(await requestRows()).toEqual([{ request_id: firstOp, status: 'sent' }]);

        // The carrier declines it: the parcel may get a new request, and exactly that one is sent.
        const decided = await on.gw.testApi('POST', '/test-api/simulate', {
          target: 'carrier',
          action: 'decide_redirect',
          params: { request_id: firstOp, decision: 'declined' },
        });
        expect(decided.body).toMatchObject({ outcome: { applied: true } });
        expect(await readOrder()).toMatchObject({
          pending_redirect: null,
          address_change: { tool: REDIRECT },
        });
        const fourth = await redirect();
        expect(fourth.status).toBe('submitted');
        expect((await requested()).map((e) => e.requestId)).toEqual([firstOp, fourth.operation_id]);
      });

      it('an accepted request still blocks a new one and orders_get says so', async () => {
        const first = await redirect();
        expect(first.status).toBe('submitted');
        await on.gw.testApi('POST', '/test-api/simulate', {
          target: 'carrier',
          action: 'decide_redirect',
          params: { shipment_id: SHIPMENT, decision: 'accepted' },
        });
        expect(await readOrder()).toMatchObject({
          pending_redirect: { operation_id: first.operation_id, status: 'accepted' },
          address_change: { tool: null },
        });
        expect(await redirect()).toMatchObject({ status: 'rejected', code: 'REDIRECT_ALREADY_REQUESTED' });
        expect(await requested()).toHaveLength(1);
      });

      it('concurrent requests under different keys: exactly one is recorded and reaches the carrier', async () => {
        const answers = await Promise.all(Array.from({ length: 12 }, () => redirect()));
        const submitted = answers.filter((a) => a.status === 'submitted');
        expect(submitted).toHaveLength(1);
        for (const refused of answers.filter((a) => a.status !== 'submitted')) {
          expect(refused.status).toBe('rejected');
          expect(['REDIRECT_IN_PROGRESS', 'REDIRECT_ALREADY_REQUESTED']).toContain(refused.code);
          expect(refused.resolution).toContain(submitted[0]!.operation_id!);
        }
        expect((await requested()).map((e) => e.requestId)).toEqual([submitted[0]!.operation_id]);
        expect(await requestRows()).toEqual([{ request_id: submitted[0]!.operation_id, status: 'sent' }]);
      });

      it('an operator who finds the request never arrived frees the parcel for a new one', async () => {
        loseNextSubmit();
        const first = await redirect();
        expect(first.status).toBe('outcome_unknown');
        const resolved = await resolveAsOperator(
          on.gw.app,
          first.operation_id!,
          'rejected',
          'carrier has no such request',
        );
        expect(resolved).toMatchObject({ kind: 'resolved', hook: 'ran' });
        expect(await requestRows()).toEqual([{ request_id: first.operation_id, status: 'abandoned' }]);
        expect((await readOrder()).pending_redirect).toBeNull();
        const again = await redirect();
        expect(again.status).toBe('submitted');
        expect((await requested()).map((e) => e.requestId)).toEqual([again.operation_id]);
      });

      it('an address change the warehouse has not confirmed blocks a redirect once the parcel has shipped', async () => {
        const order = orderId('alice-editable');
        const version = (await readOrder(order)).version as number;
        simulationWorld(on.gw.app.db).faults.arm({
          target: 'warehouse',
          fault: 'timeout',
          match: { action: 'apply_address_update' },
        });
        const change = await on.gw.callTool(ALICE, 'orders_change_unshipped_address', {
          order_id: order,
          expected_order_version: version,
          new_address: US,
          idempotency_key: newKey('change'),
        });
        expect(change.status).toBe('outcome_unknown');
        for (const action of ['lock_order', 'create_label', 'hand_to_carrier']) {
          const moved = await on.gw.testApi('POST', '/test-api/simulate', {
            target: 'warehouse',
            action,
            params: { order_id: order },
          });
          expect(moved.body, action).toMatchObject({ outcome: { applied: true } });
        }
        expect(await readOrder(order)).toMatchObject({
          fulfilment_state: 'handed_to_carrier',
          pending_address_change: { operation_id: change.operation_id },
          address_change: { tool: null },
        });
        const blocked = await redirect(newKey('redirect'), order);
        expect(blocked).toMatchObject({ status: 'rejected', code: 'ADDRESS_CHANGE_IN_PROGRESS' });
        expect(blocked.resolution).toContain(change.operation_id!);
        expect(await requested()).toEqual([]);
      });
    },
  );
}
