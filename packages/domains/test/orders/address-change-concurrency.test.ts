import { simulationOf } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { ADDRESS_SAMPLES } from '../../src/orders/demo-orders.ts';
import { newKey, type OrdersHarness, orderId, startOrders } from './orders-app.ts';

const ALICE = 'acme-customer-alice';
const CHANGE = 'orders_change_unshipped_address';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`concurrent address changes on ${target.dialect}`, () => {
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

    const change = (key: string, address: object) =>
      h.call(ALICE, CHANGE, {
        order_id: orderId('alice-editable'),
        expected_order_version: 3,
        new_address: address,
        idempotency_key: key,
      });

    it('of several changes from the same read, exactly one is applied', async () => {
      const addresses = [
        ADDRESS_SAMPLES.clean_us!,
        ADDRESS_SAMPLES.suggested_us!,
        ADDRESS_SAMPLES.cosmetic_us!,
      ];
      const answers = await Promise.all(
        [...addresses, ...addresses].map((address) => change(newKey('race'), address)),
      );
      const completed = answers.filter((a) => a.status === 'completed');
      expect(completed).toHaveLength(1);
      for (const other of answers.filter((a) => a.status !== 'completed')) {
        expect(other.status).toBe('rejected');
        expect(['ORDER_STATE_CHANGED', 'ADDRESS_CHANGE_IN_PROGRESS']).toContain(other.code);
      }
      const stored = await h.order(orderId('alice-editable'));
      expect(stored).toMatchObject({ version: 4, pending_change_id: null });
      expect(stored.address).toEqual(
        (completed[0]!.result as { confirmed_address: object }).confirmed_address,
      );
      const updates = await h.effects('warehouse', 'address_update_applied');
      expect(updates).toHaveLength(1);
      expect(updates[0]!.requestId).toBe(completed[0]!.operation_id);
    });

    it('deliveries of one key at the same time execute once', async () => {
      const key = newKey('dup');
      const answers = await Promise.all([1, 2, 3, 4].map(() => change(key, ADDRESS_SAMPLES.clean_us!)));
      const executed = answers.filter((a) => a.status === 'completed' && !a.replayed);
      expect(executed).toHaveLength(1);
      for (const other of answers) {
        expect(['completed', 'in_progress']).toContain(other.status);
        expect(other.operation_id).toBe(executed[0]!.operation_id);
      }
      expect(await h.effects('warehouse', 'address_update_applied')).toHaveLength(1);
      expect((await h.order(orderId('alice-editable'))).version).toBe(4);
    });
  });
}
