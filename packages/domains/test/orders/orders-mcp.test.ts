import { setTimeout as sleep } from 'node:timers/promises';
import type { OutcomeEnvelope } from 'toolgate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { ADDRESS_SAMPLES } from '../../src/orders/demo-orders.ts';
import { createOrdersDomain } from '../../src/orders/orders-domain.ts';
import { newKey } from './orders-app.ts';

const ALICE = 'acme-customer-alice';
const SAM = 'acme-support-sam';
const CHANGE = 'orders_change_unshipped_address';
const NEW_ADDRESS = ADDRESS_SAMPLES.clean_us!;

interface FixtureOrder {
  order_id: string;
  label: string;
  owner: string;
  fulfilment_state: string;
  version: number;
}
interface Fixtures {
  orders: {
    all: FixtureOrder[];
    by_state: Record<string, string[]>;
    by_owner: Record<string, string[]>;
    shipments: { shipment_id: string; order_id: string; owner: string }[];
  };
  principals: { name: string; sub: string; tenant: string; actor: string; scopes: string[] }[];
}

/** End to end: a real MCP client over Streamable HTTP, the test API, the reconciler running in the background. */
describe('orders through the MCP client and the test API', () => {
  let gw: StartedGateway;
  let fixtures: Fixtures;
  beforeAll(async () => {
    gw = await startGateway({ modules: [createOrdersDomain({ warehouseWaitMs: 500 })], testApi: true });
  });
  afterAll(async () => {
    await gw?.close();
  });
  beforeEach(async () => {
    expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
    fixtures = (await gw.testApi('GET', '/test-api/fixtures')).body as Fixtures;
  });

  const order = (label: string) => {
    const found = fixtures.orders.all.find((o) => o.label === label);
    if (!found) throw new Error(`no fixture ${label}`);
    return found;
  };
  const effects = async (target: string, ref: string) =>
    (
      (await gw.testApi('GET', `/test-api/effects?target=${target}&ref=${ref}`)).body as {
        effects: { action: string; request_id?: string; requestId?: string }[];
      }
    ).effects;
  const simulate = async (target: string, action: string, params: Record<string, unknown>) =>
    (await gw.testApi('POST', '/test-api/simulate', { target, action, params })).body as {
      outcome: Record<string, unknown>;
    };
  const pollOperation = async (who: string, operationId: string | null): Promise<OutcomeEnvelope> => {
    for (let i = 0; i < 60; i += 1) {
      const view = await gw.callTool(who, 'operations_get', { operation_id: operationId });
      if ((view.result as { status: string }).status !== 'outcome_unknown') return view;
      await sleep(250);
    }
    throw new Error(`operation ${operationId} never settled`);
  };

  it('fixtures name the demo principals and orders in every state with their owners', () => {
    const names = fixtures.principals.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([ALICE, SAM, 'acme-operator-olivia', 'globex-customer-gina']),
    );
    expect(fixtures.principals.find((p) => p.name === SAM)?.scopes).toEqual([
      'orders:read',
      'shipments:read',
      'shipments:redirect',
      'operations:read',
    ]);
    for (const state of [
      'pending',
      'address_change_allowed',
      'locked_for_warehouse',
      'label_created',
      'handed_to_carrier',
      'delivered',
      'cancelled',
    ]) {
      expect(fixtures.orders.by_state[state]?.length, state).toBeGreaterThan(0);
    }
    expect(fixtures.orders.all.every((o) => /^ord_[0-9a-f]{32}$/.test(o.order_id))).toBe(true);
    expect(fixtures.orders.by_owner[ALICE]).toContain(order('alice-editable').order_id);
    expect(fixtures.orders.shipments.some((s) => s.order_id === order('alice-in-transit').order_id)).toBe(
      true,
    );
  });

  it('an unshipped change completes once and the warehouse ledger shows one update', async () => {
    const target = order('alice-editable');
    const done = await gw.callTool(ALICE, CHANGE, {
      order_id: target.order_id,
      expected_order_version: target.version,
      new_address: NEW_ADDRESS,
      idempotency_key: newKey(),
    });
    expect(done).toMatchObject({ status: 'completed', result: { confirmed_address: NEW_ADDRESS } });
    const read = await gw.callTool(ALICE, 'orders_get', { order_id: target.order_id });
    expect(read.result).toMatchObject({ version: target.version + 1, delivery_address: NEW_ADDRESS });
    expect((await effects('warehouse', target.order_id)).map((e) => e.action)).toEqual([
      'address_update_applied',
    ]);
  });

  it('a dropped warehouse answer is outcome_unknown, settles completed in the background, and replays', async () => {
    const target = order('alice-editable');
    const armed = await gw.testApi('POST', '/test-api/faults', {
      target: 'warehouse',
      fault: 'drop_response_after_apply',
      match: { action: 'apply_address_update' },
    });
    expect(armed.status).toBe(201);
    const key = newKey();
    const args = {
      order_id: target.order_id,
      expected_order_version: target.version,
      new_address: NEW_ADDRESS,
      idempotency_key: key,
    };
    const lost = await gw.callTool(ALICE, CHANGE, args);
    expect(lost).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
    const settled = await pollOperation(ALICE, lost.operation_id);
    expect(settled.result).toMatchObject({ status: 'completed', outcome: { status: 'completed' } });
    const retry = await gw.callTool(ALICE, CHANGE, args);
    expect(retry).toMatchObject({ status: 'completed', replayed: true, operation_id: lost.operation_id });
    const conflict = await gw.callTool(ALICE, CHANGE, { ...args, new_address: ADDRESS_SAMPLES.suggested_us });
    expect(conflict).toMatchObject({ status: 'failed', code: 'IDEMPOTENCY_CONFLICT' });
    expect(await effects('warehouse', target.order_id)).toHaveLength(1);
  });

  it('a lock by the warehouse between read and write refuses the change without a write', async () => {
    const target = order('alice-editable');
    const locked = await simulate('warehouse', 'lock_order', { order_id: target.order_id });
    expect(locked.outcome).toMatchObject({ applied: true, fulfilment_state: 'locked_for_warehouse' });
    const refused = await gw.callTool(ALICE, CHANGE, {
      order_id: target.order_id,
      expected_order_version: target.version,
      new_address: NEW_ADDRESS,
      idempotency_key: newKey(),
    });
    expect(refused).toMatchObject({ status: 'rejected', code: 'WAREHOUSE_HANDOFF_STARTED' });
    expect((await effects('warehouse', target.order_id)).map((e) => e.action)).toEqual(['order_locked']);
  });

  it('a customer cannot redirect; a support agent gets submitted, then the carrier decision', async () => {
    const target = order('alice-in-transit');
    const forbidden = await gw.callTool(ALICE, 'shipments_request_redirect', {
      order_id: target.order_id,
      new_address: NEW_ADDRESS,
      idempotency_key: newKey(),
    });
    expect(forbidden).toMatchObject({ status: 'failed', code: 'FORBIDDEN' });
    const submitted = await gw.callTool(SAM, 'shipments_request_redirect', {
      order_id: target.order_id,
      new_address: NEW_ADDRESS,
      idempotency_key: newKey(),
    });
    expect(submitted).toMatchObject({ status: 'submitted', result: { redirect_status: 'submitted' } });
    const requestId = (submitted.result as { request_id: string }).request_id;
    const decided = await simulate('carrier', 'decide_redirect', {
      request_id: requestId,
      decision: 'declined',
    });
    expect(decided.outcome).toMatchObject({ applied: true });
    const status = await gw.callTool(SAM, 'shipments_get_redirect', {
      order_id: target.order_id,
      request_id: requestId,
    });
    expect(status.result).toMatchObject({ redirects: [{ request_id: requestId, status: 'declined' }] });
  });

  it('the warehouse and carrier world actions move an order from editable to delivered', async () => {
    const target = order('alice-editable-2');
    const route = async () =>
      (await gw.callTool(ALICE, 'orders_get', { order_id: target.order_id })).result as {
        fulfilment_state: string;
        address_change: { tool: string | null };
        shipment: { shipment_id: string } | null;
      };
    await simulate('warehouse', 'lock_order', { order_id: target.order_id });
    expect(await route()).toMatchObject({
      fulfilment_state: 'locked_for_warehouse',
      address_change: { tool: null },
    });
    const labelled = await simulate('warehouse', 'create_label', { order_id: target.order_id });
    expect(labelled.outcome).toMatchObject({ applied: true, fulfilment_state: 'label_created' });
    await simulate('warehouse', 'hand_to_carrier', { order_id: target.order_id });
    const shipped = await route();
    expect(shipped).toMatchObject({
      fulfilment_state: 'handed_to_carrier',
      address_change: { tool: 'shipments_request_redirect' },
    });
    const delivered = await simulate('carrier', 'deliver', { shipment_id: shipped.shipment?.shipment_id });
    expect(delivered.outcome).toMatchObject({ applied: true, fulfilment_state: 'delivered' });
    const refusedTwice = await simulate('warehouse', 'lock_order', { order_id: target.order_id });
    expect(refusedTwice.outcome).toMatchObject({ applied: false });
  });

  it('metrics carry no address', async () => {
    await gw.callTool(ALICE, CHANGE, {
      order_id: order('alice-editable').order_id,
      expected_order_version: order('alice-editable').version,
      new_address: NEW_ADDRESS,
      idempotency_key: newKey(),
    });
    const metrics = await (await fetch(new URL('/metrics', gw.origin))).text();
    expect(metrics).toContain('orders_change_unshipped_address');
    for (const fragment of [NEW_ADDRESS.address_line_1, NEW_ADDRESS.recipient_name, NEW_ADDRESS.locality]) {
      expect(metrics).not.toContain(fragment);
    }
  });
});
