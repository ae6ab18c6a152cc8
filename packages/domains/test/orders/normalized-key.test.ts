import { simulationOf } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { ADDRESS_SAMPLES } from '../../src/orders/demo-orders.ts';
import { newKey, type OrdersHarness, orderId, startOrders } from './orders-app.ts';

const ALICE = 'acme-customer-alice';
const SAM = 'acme-support-sam';
const CHANGE = 'orders_change_unshipped_address';
const REDIRECT = 'shipments_request_redirect';
const STREET = ADDRESS_SAMPLES.clean_us!;
/** The same address as a person might type it again: the street type abbreviated. */
const ST = { ...STREET, address_line_1: '350 Oak St' };
/** Another address: a different street number. */
const OTHER_NUMBER = { ...STREET, address_line_1: '352 Oak Street' };

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `the idempotency key is bound to the normalized address on ${target.dialect}`,
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

      const operationsOf = (key: string) =>
        h.app.db.query<{ id: string; status: string }>(
          'SELECT id, status FROM operations WHERE idem_key = ?',
          [key],
        );
      const change = (id: string, address: object, key: string) =>
        h.call(ALICE, CHANGE, {
          order_id: id,
          expected_order_version: 3,
          new_address: address,
          idempotency_key: key,
        });

      it('a change sent again with "350 Oak St" after "350 Oak Street" replays: one warehouse update, one operation', async () => {
        const id = orderId('alice-editable');
        const key = newKey('normalized');
        const done = await change(id, STREET, key);
        expect(done).toMatchObject({ status: 'completed', replayed: false });
        const again = await change(id, ST, key);
        expect(again).toMatchObject({
          status: 'completed',
          replayed: true,
          operation_id: done.operation_id,
          result: { order_version: 4, confirmed_address: STREET },
        });
        expect(await h.effects('warehouse', 'address_update_applied')).toHaveLength(1);
        expect(await operationsOf(key)).toEqual([{ id: done.operation_id, status: 'completed' }]);
        expect(await h.order(id)).toMatchObject({ version: 4, address: STREET });
      });

      it('another street number under the same key still conflicts, and nothing more is executed', async () => {
        const id = orderId('alice-editable');
        const key = newKey('normalized');
        const done = await change(id, STREET, key);
        expect(done.status).toBe('completed');
        const conflicting = await change(id, OTHER_NUMBER, key);
        expect(conflicting).toMatchObject({ status: 'failed', code: 'IDEMPOTENCY_CONFLICT' });
        expect(await h.effects('warehouse', 'address_update_applied')).toHaveLength(1);
        expect(await operationsOf(key)).toEqual([{ id: done.operation_id, status: 'completed' }]);
        expect(await h.order(id)).toMatchObject({ version: 4, address: STREET });
      });

      it('a redirect sent again with the abbreviated street replays: one carrier request, one operation', async () => {
        const key = newKey('normalized');
        const redirect = (address: object) =>
          h.call(SAM, REDIRECT, {
            order_id: orderId('alice-in-transit'),
            new_address: address,
            idempotency_key: key,
          });
        const submitted = await redirect(STREET);
        expect(submitted).toMatchObject({ status: 'submitted', replayed: false });
        const again = await redirect(ST);
        expect(again).toMatchObject({
          status: 'submitted',
          replayed: true,
          operation_id: submitted.operation_id,
          result: { requested_address: STREET },
        });
        expect(await h.effects('carrier', 'redirect_requested')).toHaveLength(1);
        expect(await operationsOf(key)).toHaveLength(1);
        const other = await redirect(OTHER_NUMBER);
        expect(other).toMatchObject({ status: 'failed', code: 'IDEMPOTENCY_CONFLICT' });
        expect(await h.effects('carrier', 'redirect_requested')).toHaveLength(1);
      });
    },
  );
}
