import { simulationWorld } from '@toolgate/simulation';
import type { OutcomeEnvelope } from 'toolgate';
import { confirmingClient, type ScriptedAnswer } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { accepted, askingCall, relayedDigest } from '../../../../test/support/person-confirms.ts';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { addressLine } from '../../src/orders/address-correction-confirmation.ts';
import { ADDRESS_SAMPLES } from '../../src/orders/demo-orders.ts';
import { createOrdersDomain } from '../../src/orders/orders-domain.ts';
import type { PostalAddress } from '../../src/orders/postal-address.ts';
import { newKey, orderId } from './orders-app.ts';

const ALICE = 'acme-customer-alice';
const CHANGE = 'orders_change_unshipped_address';
const SENT = ADDRESS_SAMPLES.material_postal_code_us!;
const SUGGESTED = ADDRESS_SAMPLES.suggested_us!;

/**
 * A material correction is the customer's choice: asked in their client (or relayed by the agent on a
 * client that cannot ask), and the address they chose is the one the order takes.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`the customer chooses a corrected address (${target.dialect})`, () => {
    const suite = gatewayOnStore(target, { modules: [createOrdersDomain({ warehouseWaitMs: 400 })] });
    const db = () => suite.gw.app.db;
    const editable = () => orderId('alice-editable');
    const args = (address: PostalAddress, key = newKey('choose')) => ({
      order_id: editable(),
      expected_order_version: 3,
      new_address: address,
      idempotency_key: key,
    });

    /** The order's row, the warehouse's applied updates and the operations of a key: the world. */
    const world = async (key: string) => {
      const [row] = await db().query<{
        version: number;
        delivery_address: string;
        pending_change_id: string | null;
      }>('SELECT version, delivery_address, pending_change_id FROM orders WHERE id = ?', [editable()]);
      return {
        version: Number(row!.version),
        address: JSON.parse(row!.delivery_address) as PostalAddress,
        pending: row!.pending_change_id,
        warehouse: await simulationWorld(db()).ledger.list({
          system: 'warehouse',
          action: 'address_update_applied',
        }),
        operations: await db().query<{ id: string; status: string }>(
          'SELECT id, status FROM operations WHERE idem_key = ?',
          [key],
        ),
      };
    };
    const untouched = async (key: string) => {
      const now = await world(key);
      expect(now).toMatchObject({ version: 3, pending: null, warehouse: [], operations: [] });
      expect(now.address).not.toEqual(SENT);
      expect(now.address).not.toEqual(SUGGESTED);
    };
    const change = async (call: Record<string, unknown>, script: ScriptedAnswer[]) => {
      const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), script);
      const answer = await client.callTool({ name: CHANGE, arguments: call });
      await client.close();
      return { envelope: answer.structuredContent as unknown as OutcomeEnvelope, asked };
    };

    it('choosing the suggestion applies the suggested address, once', async () => {
      const call = args(SENT);
      const { envelope, asked } = await change(call, [{ action: 'accept', choice: 'suggested' }]);
      expect(envelope).toMatchObject({
        status: 'completed',
        replayed: false,
        result: { confirmed_address: SUGGESTED },
      });
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toContain('suggests a different postal code');
      expect(asked[0]!.message).toContain(`- suggested: ${addressLine(SUGGESTED)}`);
      expect(asked[0]!.message).toContain(`- sent: ${addressLine(SENT)}`);
      expect(asked[0]!.requestedSchema).toMatchObject({
        required: ['confirm', 'choice'],
        properties: {
          choice: {
            oneOf: [
              { const: 'suggested', title: `The suggested address: ${addressLine(SUGGESTED)}` },
              { const: 'original', title: `The address as given: ${addressLine(SENT)}` },
            ],
          },
        },
      });
      const replay = await change(call, [{ action: 'decline' }]);
      expect(replay.envelope).toMatchObject({ status: 'completed', replayed: true });
      expect(replay.asked).toEqual([]);
      const after = await world(call.idempotency_key);
      expect(after).toMatchObject({ version: 4, address: SUGGESTED, pending: null });
      expect(after.warehouse).toHaveLength(1);
      expect(after.operations).toEqual([{ id: envelope.operation_id, status: 'completed' }]);
    });

    it('keeping their own address applies the address as sent', async () => {
      const call = args(SENT);
      const { envelope } = await change(call, [{ action: 'accept', choice: 'original' }]);
      expect(envelope).toMatchObject({ status: 'completed', result: { confirmed_address: SENT } });
      const after = await world(call.idempotency_key);
      expect(after).toMatchObject({ version: 4, address: SENT });
      expect(after.warehouse).toHaveLength(1);
    });

    it('declined, nothing changes and the key stays free', async () => {
      const call = args(SENT);
      const declined = await change(call, [{ action: 'decline' }]);
      expect(declined.envelope).toMatchObject({
        status: 'rejected',
        code: 'CONFIRMATION_DECLINED',
        operation_id: null,
      });
      await untouched(call.idempotency_key);
      const later = await change(call, [{ action: 'accept', choice: 'suggested' }]);
      expect(later.envelope).toMatchObject({ status: 'completed', replayed: false });
      expect((await world(call.idempotency_key)).address).toEqual(SUGGESTED);
    });

    it('an answer sent back for another address changes nothing', async () => {
      const token = await suite.gw.tokenFor(ALICE);
      const call = args(SENT);
      const first = await askingCall(suite.gw.url, token, { name: CHANGE, arguments: call });
      expect(first.body.result).toMatchObject({ resultType: 'input_required' });
      const other = await askingCall(
        suite.gw.url,
        token,
        { name: CHANGE, arguments: { ...call, new_address: ADDRESS_SAMPLES.material_street_us } },
        { inputResponses: accepted('suggested'), requestState: first.body.result!.requestState },
      );
      expect(other.body.result).toMatchObject({
        structuredContent: { status: 'failed', code: 'CONFIRMATION_MISMATCH', operation_id: null },
      });
      await untouched(call.idempotency_key);
    });

    it('a valid address, or one with cosmetic fixes only, asks nobody', async () => {
      const call = args(ADDRESS_SAMPLES.clean_us!);
      const { envelope, asked } = await change(call, [{ action: 'decline' }]);
      expect(envelope).toMatchObject({ status: 'completed' });
      expect(asked).toEqual([]);
      expect((await world(call.idempotency_key)).warehouse).toHaveLength(1);

      const cosmetic = { ...args(ADDRESS_SAMPLES.cosmetic_us!), expected_order_version: 4 };
      const tidied = await change(cosmetic, [{ action: 'decline' }]);
      expect(tidied.envelope).toMatchObject({
        status: 'completed',
        warnings: expect.arrayContaining([expect.objectContaining({ code: 'ADDRESS_NORMALIZED' })]),
      });
      expect(tidied.asked).toEqual([]);
      const after = await world(cosmetic.idempotency_key);
      expect(after).toMatchObject({ version: 5, address: { address_line_1: '350 Oak Street' } });
      expect(after.warehouse).toHaveLength(2);
    });

    it('a client that cannot ask gets the question with both addresses to relay; only the right confirmation runs', async () => {
      const key = newKey('relay');
      const relayed = await suite.gw.callTool(ALICE, CHANGE, args(SENT, key));
      expect(relayed).toMatchObject({
        status: 'requires_confirmation',
        code: 'CONFIRMATION_REQUIRED',
        operation_id: null,
      });
      expect(relayed.message).toContain(`suggested: ${addressLine(SUGGESTED)}`);
      expect(relayed.resolution).toContain(`"The suggested address: ${addressLine(SUGGESTED)}"`);
      await untouched(key);

      const wrong = await suite.gw.callTool(ALICE, CHANGE, {
        ...args(SENT, key),
        confirmation: '0123456789abcdef01234567',
      });
      expect(wrong).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH', operation_id: null });
      await untouched(key);

      const kept = await suite.gw.callTool(ALICE, CHANGE, {
        ...args(SENT, key),
        confirmation: relayedDigest(relayed, 'The address as given'),
      });
      expect(kept).toMatchObject({ status: 'completed', result: { confirmed_address: SENT } });
      const after = await world(key);
      expect(after).toMatchObject({ version: 4, address: SENT });
      expect(after.warehouse).toHaveLength(1);
      expect(after.operations).toEqual([{ id: kept.operation_id, status: 'completed' }]);
    });

    it('validation down: nothing starts and nobody is asked', async () => {
      simulationWorld(db()).faults.arm({ target: 'address_validation', fault: 'unavailable' });
      const call = args(SENT);
      const { envelope, asked } = await change(call, [{ action: 'accept', choice: 'suggested' }]);
      expect(envelope).toMatchObject({
        status: 'failed',
        code: 'DEPENDENCY_UNAVAILABLE',
        operation_id: null,
      });
      expect(asked).toEqual([]);
      await untouched(call.idempotency_key);
    });
  });
}
