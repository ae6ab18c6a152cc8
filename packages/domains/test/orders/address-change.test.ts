import { simulationHooksOf, simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { relayedDigest } from '../../../../test/support/person-confirms.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { addressLine } from '../../src/orders/address-correction-confirmation.ts';
import { ADDRESS_SAMPLES } from '../../src/orders/demo-orders.ts';
import { addressDigest } from '../../src/orders/systems/postal-address.ts';
import { newKey, type OrdersHarness, orderId, startOrders } from './orders-app.ts';

const ALICE = 'acme-customer-alice';
const CHANGE = 'orders_change_unshipped_address';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`orders address change on ${target.dialect}`, () => {
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

    const change = (id: string, version: number, address: object, who = ALICE, key = newKey()) =>
      h.call(who, CHANGE, {
        order_id: id,
        expected_order_version: version,
        new_address: address,
        idempotency_key: key,
      });

    /** Nothing written: same row as before, no warehouse update in the ledger. */
    const expectUntouched = async (id: string, before: Awaited<ReturnType<OrdersHarness['order']>>) => {
      expect(await h.order(id)).toEqual(before);
      expect(await h.effects('warehouse', 'address_update_applied')).toEqual([]);
    };

    it('an unshipped order takes the new address once, confirmed by the warehouse', async () => {
      const id = orderId('alice-editable');
      const read = await h.call(ALICE, 'orders_get', { order_id: id });
      expect(read.result).toMatchObject({
        version: 3,
        fulfilment_state: 'address_change_allowed',
        address_change: { tool: CHANGE },
      });
      const done = await change(id, 3, ADDRESS_SAMPLES.clean_us!);
      expect(done).toMatchObject({
        ok: true,
        status: 'completed',
        result: {
          order_id: id,
          order_version: 4,
          confirmed_address: ADDRESS_SAMPLES.clean_us,
          suggested_address: null,
        },
        warnings: [],
      });
      expect(await h.order(id)).toMatchObject({
        version: 4,
        address: ADDRESS_SAMPLES.clean_us,
        pending_change_id: null,
      });
      const updates = await h.effects('warehouse', 'address_update_applied');
      expect(updates).toHaveLength(1);
      expect(updates[0]).toMatchObject({
        ref: id,
        tenant: 'acme',
        requestId: done.operation_id,
        data: {
          address_digest: addressDigest(ADDRESS_SAMPLES.clean_us!),
          country_code: 'US',
          postal_code: '43215',
        },
      });
    });

    it('cosmetic normalization is applied and listed in warnings', async () => {
      const id = orderId('alice-editable');
      const done = await change(id, 3, ADDRESS_SAMPLES.cosmetic_us!);
      expect(done.status).toBe('completed');
      const confirmed = {
        recipient_name: 'Alice Moreau',
        address_line_1: '350 Oak Street',
        address_line_2: 'Apartment 4',
        locality: 'Columbus',
        administrative_area: 'OH',
        postal_code: '43215',
        country_code: 'US',
      };
      expect(done.result).toMatchObject({ confirmed_address: confirmed, corrected_fields: [] });
      expect(done.warnings.map((w) => w.code)).toContain('ADDRESS_NORMALIZED');
      expect(done.warnings.map((w) => w.message)).toEqual(
        expect.arrayContaining(['address_line_1: "St" written out as "Street".']),
      );
      expect((await h.order(id)).address).toEqual(confirmed);
    });

    it('a material correction changes nothing until the customer chooses; the relayed choice of the suggestion applies it', async () => {
      const id = orderId('alice-editable');
      const before = await h.order(id);
      const key = newKey();
      // This in-process caller cannot ask its user: the question is relayed by the agent.
      const asked = await change(id, 3, ADDRESS_SAMPLES.material_postal_code_us!, ALICE, key);
      expect(asked).toMatchObject({
        ok: false,
        status: 'requires_confirmation',
        code: 'CONFIRMATION_REQUIRED',
        category: 'confirmation',
        operation_id: null,
      });
      expect(asked.message).toContain('suggests a different postal code');
      expect(asked.message).toContain(`suggested: ${addressLine(ADDRESS_SAMPLES.suggested_us!)}`);
      await expectUntouched(id, before);
      const street = await change(id, 3, ADDRESS_SAMPLES.material_street_us!);
      expect(street).toMatchObject({ status: 'requires_confirmation', code: 'CONFIRMATION_REQUIRED' });
      expect(street.message).toContain('suggests a different address line 1');
      await expectUntouched(id, before);

      const accepted = await h.call(ALICE, CHANGE, {
        order_id: id,
        expected_order_version: 3,
        new_address: ADDRESS_SAMPLES.material_postal_code_us!,
        idempotency_key: key,
        confirmation: relayedDigest(asked, 'The suggested address'),
      });
      expect(accepted).toMatchObject({
        status: 'completed',
        result: { confirmed_address: ADDRESS_SAMPLES.suggested_us },
      });
      expect((await h.order(id)).address).toEqual(ADDRESS_SAMPLES.suggested_us);
      expect(await h.effects('warehouse', 'address_update_applied')).toHaveLength(1);
    });

    it('a shipped order is refused and pointed to the redirect tool', async () => {
      const id = orderId('alice-in-transit');
      const before = await h.order(id);
      const refused = await change(id, before.version, ADDRESS_SAMPLES.clean_us!);
      expect(refused).toMatchObject({
        status: 'rejected',
        code: 'ORDER_WITH_CARRIER',
        category: 'state',
        retryable: false,
      });
      expect(refused.resolution).toContain('shipments_request_redirect');
      await expectUntouched(id, before);
      const read = await h.call(ALICE, 'orders_get', { order_id: id });
      expect(read.result).toMatchObject({ address_change: { tool: 'shipments_request_redirect' } });
    });

    it('a stale version writes nothing', async () => {
      const id = orderId('alice-editable');
      const before = await h.order(id);
      const stale = await change(id, 2, ADDRESS_SAMPLES.clean_us!);
      expect(stale).toMatchObject({ status: 'rejected', code: 'ORDER_STATE_CHANGED', category: 'conflict' });
      expect(stale.resolution).toContain('orders_get');
      await expectUntouched(id, before);
    });

    it('the warehouse locking the order between read and write is WAREHOUSE_HANDOFF_STARTED, no write', async () => {
      const id = orderId('alice-editable');
      const read = await h.call(ALICE, 'orders_get', { order_id: id });
      const version = (read.result as { version: number }).version;
      const locked = await simulationHooksOf(h.app.modules[0]!)!.simulate!('warehouse', 'lock_order', {
        order_id: id,
      });
      expect(locked).toMatchObject({
        applied: true,
        fulfilment_state: 'locked_for_warehouse',
        version: version + 1,
      });
      const before = await h.order(id);
      const refused = await change(id, version, ADDRESS_SAMPLES.clean_us!);
      expect(refused).toMatchObject({ status: 'rejected', code: 'WAREHOUSE_HANDOFF_STARTED' });
      await expectUntouched(id, before);
      expect(before.address).toEqual((read.result as { delivery_address: object }).delivery_address);
    });

    it("another customer's or tenant's order is not found and nothing is written", async () => {
      const bobs = orderId('bob-editable');
      const ginas = orderId('gina-editable');
      const bobBefore = await h.order(bobs);
      const ginaBefore = await h.order(ginas);
      for (const id of [bobs, ginas]) {
        const read = await h.call(ALICE, 'orders_get', { order_id: id });
        expect(read).toMatchObject({ status: 'rejected', code: 'ORDER_NOT_FOUND', result: null });
        const refused = await change(id, 2, ADDRESS_SAMPLES.clean_us!);
        expect(refused).toMatchObject({ status: 'rejected', code: 'ORDER_NOT_FOUND' });
      }
      const missing = await change(`ord_${'0'.repeat(32)}`, 1, ADDRESS_SAMPLES.clean_us!);
      expect(missing.code).toBe('ORDER_NOT_FOUND');
      await expectUntouched(bobs, bobBefore);
      await expectUntouched(ginas, ginaBefore);
    });

    it('destination rules refuse countries not served, restricted items and payment regions', async () => {
      const cases = [
        ['alice-editable', ADDRESS_SAMPLES.not_served_jp, 'DESTINATION_NOT_SERVED'],
        ['alice-restricted', ADDRESS_SAMPLES.restricted_item_ca, 'RESTRICTED_ITEM_DESTINATION'],
        ['alice-payment-na', ADDRESS_SAMPLES.payment_region_gb, 'PAYMENT_NOT_VALID_FOR_DESTINATION'],
      ] as const;
      for (const [label, address, code] of cases) {
        const id = orderId(label);
        const before = await h.order(id);
        const refused = await change(id, before.version, address!);
        expect(refused, label).toMatchObject({ status: 'rejected', code, category: 'policy' });
        await expectUntouched(id, before);
      }
    });

    it('an undeliverable address is rejected', async () => {
      const id = orderId('alice-editable');
      const before = await h.order(id);
      const refused = await change(id, 3, ADDRESS_SAMPLES.undeliverable_us!);
      expect(refused).toMatchObject({ status: 'failed', code: 'ADDRESS_UNDELIVERABLE' });
      await expectUntouched(id, before);
    });

    it('pending, locked, labelled, delivered and cancelled orders answer their own codes', async () => {
      const cases = [
        ['alice-pending', 'completed'],
        ['alice-locked', 'WAREHOUSE_HANDOFF_STARTED'],
        ['alice-label', 'WAREHOUSE_HANDOFF_STARTED'],
        ['alice-delivered', 'ORDER_DELIVERED'],
        ['alice-cancelled', 'ORDER_CANCELLED'],
      ] as const;
      for (const [label, expected] of cases) {
        const id = orderId(label);
        const before = await h.order(id);
        const answer = await change(id, before.version, ADDRESS_SAMPLES.clean_us!);
        if (expected === 'completed') expect(answer.status, label).toBe('completed');
        else {
          expect(answer, label).toMatchObject({ status: 'rejected', code: expected });
          expect(await h.order(id)).toEqual(before);
        }
      }
      expect(await h.effects('warehouse', 'address_update_applied')).toHaveLength(1);
    });

    it('validation or the warehouse being unavailable fails without a change, and the same key then succeeds', async () => {
      const id = orderId('alice-editable');
      const before = await h.order(id);
      const key = newKey();
      simulationWorld(h.app.db).faults.arm({ target: 'address_validation', fault: 'unavailable' });
      const noValidation = await change(id, 3, ADDRESS_SAMPLES.clean_us!, ALICE, key);
      expect(noValidation).toMatchObject({
        status: 'failed',
        code: 'DEPENDENCY_UNAVAILABLE',
        retryable: true,
      });
      await expectUntouched(id, before);
      simulationWorld(h.app.db).faults.arm({
        target: 'warehouse',
        fault: 'unavailable',
        match: { action: 'apply_address_update' },
      });
      const noWarehouse = await change(id, 3, ADDRESS_SAMPLES.clean_us!, ALICE, key);
      expect(noWarehouse).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE' });
      await expectUntouched(id, before);
      const done = await change(id, 3, ADDRESS_SAMPLES.clean_us!, ALICE, key);
      expect(done).toMatchObject({ status: 'completed', replayed: false });
      expect(await h.effects('warehouse', 'address_update_applied')).toHaveLength(1);
    });

    it('inputs outside the contract are refused before anything runs', async () => {
      const id = orderId('alice-editable');
      const bad = await h.call(ALICE, CHANGE, {
        order_id: 'ord_123',
        expected_order_version: 0,
        new_address: { ...ADDRESS_SAMPLES.clean_us, country_code: 'usa', customer_id: 'x' },
        idempotency_key: newKey(),
      });
      expect(bad).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT' });
      expect(bad.field_errors.map((e) => e.field).sort()).toEqual(
        [
          'expected_order_version',
          'new_address.country_code',
          'new_address.country_code',
          'new_address.customer_id',
          'order_id',
          'order_id',
        ].sort(),
      );
      expect((await h.order(id)).version).toBe(3);
    });
  });
}
