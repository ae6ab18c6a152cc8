import { simulationHooksOf, simulationOf, simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { ADDRESS_SAMPLES, demoId } from '../../src/orders/demo-orders.ts';
import { addressDigest } from '../../src/orders/systems/postal-address.ts';
import { newKey, type OrdersHarness, orderId, startOrders } from './orders-app.ts';

const SAM = 'acme-support-sam';
const REDIRECT = 'shipments_request_redirect';
const STATUS = 'shipments_get_redirect';
const US_ADDRESS = ADDRESS_SAMPLES.clean_us!;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`shipment redirects on ${target.dialect}`, () => {
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

    const redirect = (label: string, address: object = US_ADDRESS, who = SAM, key = newKey()) =>
      h.call(who, REDIRECT, { order_id: orderId(label), new_address: address, idempotency_key: key });
    const status = async (label: string, requestId?: string) =>
      h.call(SAM, STATUS, { order_id: orderId(label), ...(requestId ? { request_id: requestId } : {}) });
    const requested = () => h.effects('carrier', 'redirect_requested');
    /** The order service's own record of the redirect requests it decided to send. */
    const requestRecords = () =>
      h.app.db.query<{ request_id: string; status: string; code: string | null }>(
        'SELECT request_id, status, code FROM shipment_redirect_requests ORDER BY request_id',
      );
    const decide = (params: Record<string, unknown>) =>
      simulationHooksOf(h.app.modules[0]!)!.simulate!('carrier', 'decide_redirect', params);

    it('a customer token cannot redirect; nothing reaches the carrier', async () => {
      const answer = await redirect('alice-in-transit', US_ADDRESS, 'acme-customer-alice');
      expect(answer).toMatchObject({ status: 'failed', code: 'FORBIDDEN', operation_id: null });
      expect(answer.resolution).toContain('shipments:redirect');
      expect(await requested()).toEqual([]);
      const look = await h.call('acme-customer-alice', STATUS, { order_id: orderId('alice-in-transit') });
      expect(look.code).toBe('FORBIDDEN');
    });

    it('a redirect is submitted, never completed, and later reported as the carrier accepted it', async () => {
      const submitted = await redirect('alice-in-transit');
      expect(submitted).toMatchObject({
        ok: true,
        status: 'submitted',
        result: {
          order_id: orderId('alice-in-transit'),
          shipment_id: demoId('shp_', 'alice-in-transit'),
          request_id: submitted.operation_id,
          redirect_status: 'submitted',
          requested_address: US_ADDRESS,
        },
      });
      const [effect] = await requested();
      expect(effect).toMatchObject({
        ref: demoId('shp_', 'alice-in-transit'),
        requestId: submitted.operation_id,
        data: { address_digest: addressDigest(US_ADDRESS), country_code: 'US' },
      });
      const pending = await status('alice-in-transit');
      expect(pending.result).toMatchObject({
        redirects: [{ request_id: submitted.operation_id, status: 'submitted' }],
      });

      const decided = await decide({ shipment_id: demoId('shp_', 'alice-in-transit'), decision: 'accepted' });
      expect(decided).toMatchObject({ applied: true });
      const accepted = await status('alice-in-transit', submitted.operation_id!);
      expect(accepted.result).toMatchObject({
        redirects: [{ status: 'accepted', decided_at: expect.any(String) }],
      });
      await simulationHooksOf(h.app.modules[0]!)!.simulate!('carrier', 'complete_redirect', {
        request_id: submitted.operation_id,
      });
      const completed = await status('alice-in-transit');
      expect(completed.result).toMatchObject({ redirects: [{ status: 'completed' }] });
      expect((await h.effects('carrier')).map((e) => e.action)).toEqual([
        'redirect_requested',
        'redirect_accepted',
        'redirect_completed',
      ]);
    });

    it('a declined redirect is reported as declined, and a new request is possible afterwards', async () => {
      const first = await redirect('alice-in-transit');
      const again = await redirect('alice-in-transit');
      expect(again).toMatchObject({ status: 'rejected', code: 'REDIRECT_ALREADY_REQUESTED' });
      expect(again.resolution).toContain('shipments_get_redirect');
      await decide({ request_id: first.operation_id, decision: 'declined' });
      const declined = await status('alice-in-transit', first.operation_id!);
      expect(declined.result).toMatchObject({ redirects: [{ status: 'declined' }] });
      const second = await redirect('alice-in-transit');
      expect(second.status).toBe('submitted');
      expect(await requested()).toHaveLength(2);
    });

    it('carrier rules and order state refuse redirects without asking the carrier twice', async () => {
      const cases = [
        ['bob-in-transit-signature', ADDRESS_SAMPLES.clean_gb, 'REDIRECT_NOT_ELIGIBLE'],
        ['bob-in-transit', ADDRESS_SAMPLES.clean_de, 'REDIRECT_NOT_ELIGIBLE'],
        ['alice-delivered', US_ADDRESS, 'SHIPMENT_DELIVERED'],
        ['alice-label', US_ADDRESS, 'PARCEL_NOT_YET_WITH_CARRIER'],
        ['alice-locked', US_ADDRESS, 'PARCEL_NOT_YET_WITH_CARRIER'],
        ['alice-cancelled', US_ADDRESS, 'ORDER_CANCELLED'],
      ] as const;
      const refusedByCarrier: string[] = [];
      for (const [label, address, code] of cases) {
        const answer = await redirect(label, address!);
        expect(answer, label).toMatchObject({ status: 'rejected', code });
        if (label.startsWith('bob-')) refusedByCarrier.push(answer.operation_id!);
      }
      expect(await requested()).toEqual([]);
      // Only the requests the carrier itself refused were sent; each is kept as refused with its code.
      expect(await requestRecords()).toEqual(
        refusedByCarrier
          .sort()
          .map((request_id) => ({ request_id, status: 'refused', code: 'REDIRECT_NOT_ELIGIBLE' })),
      );
    });

    it('an order that has not shipped points to the address change tool', async () => {
      const answer = await redirect('alice-editable');
      expect(answer).toMatchObject({ status: 'rejected', code: 'ORDER_NOT_SHIPPED' });
      expect(answer.resolution).toContain('orders_change_unshipped_address');
      const look = await status('alice-editable');
      expect(look).toMatchObject({ status: 'completed', result: { shipment_id: null, redirects: [] } });
      expect(await requested()).toEqual([]);
    });

    it("another tenant's parcel is not found", async () => {
      const answer = await redirect('gina-in-transit');
      expect(answer).toMatchObject({ status: 'rejected', code: 'ORDER_NOT_FOUND' });
      const look = await status('gina-in-transit');
      expect(look.code).toBe('ORDER_NOT_FOUND');
      expect(await requested()).toEqual([]);
    });

    it('a lost carrier answer is outcome_unknown and reconciled to submitted with one request at the carrier', async () => {
      simulationWorld(h.app.db).faults.arm({
        target: 'carrier',
        fault: 'drop_response_after_apply',
        match: { action: 'submit_redirect' },
      });
      const key = newKey();
      const lost = await redirect('alice-in-transit', US_ADDRESS, SAM, key);
      expect(lost).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
      expect(await requested()).toHaveLength(1);
      await h.reconcile();
      const op = await h.call(SAM, 'operations_get', { operation_id: lost.operation_id });
      expect(op.result).toMatchObject({
        status: 'submitted',
        outcome: { status: 'submitted', result: { request_id: lost.operation_id } },
      });
      const retry = await redirect('alice-in-transit', US_ADDRESS, SAM, key);
      expect(retry).toMatchObject({ status: 'submitted', replayed: true });
      expect(await requested()).toHaveLength(1);
    });

    it('a request that never reached the carrier is sent again by reconciliation', async () => {
      simulationWorld(h.app.db).faults.arm({
        target: 'carrier',
        fault: 'timeout',
        match: { action: 'submit_redirect' },
      });
      const lost = await redirect('alice-in-transit');
      expect(lost.status).toBe('outcome_unknown');
      expect(await requested()).toEqual([]);
      await h.reconcile();
      const op = await h.call(SAM, 'operations_get', { operation_id: lost.operation_id });
      expect(op.result).toMatchObject({ status: 'submitted' });
      const [effect] = await requested();
      expect(effect?.requestId).toBe(lost.operation_id);
    });

    it('a material correction needs confirmation before anything is requested', async () => {
      const answer = await redirect('alice-in-transit', ADDRESS_SAMPLES.material_postal_code_us!);
      expect(answer).toMatchObject({
        status: 'requires_confirmation',
        code: 'ADDRESS_CORRECTION_SUGGESTED',
        result: { suggested_address: ADDRESS_SAMPLES.suggested_us, request_id: null },
      });
      expect(await requested()).toEqual([]);
      expect(await requestRecords()).toEqual([]);
    });
  });
}
