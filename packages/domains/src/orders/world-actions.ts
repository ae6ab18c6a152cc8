import type { SqlDatabase, SqlExecutor } from 'toolgate';
import { z } from 'zod';
import { shipDemoOrder } from './demo-shipment.ts';
import { EDITABLE_STATES, type FulfilmentState } from './fulfilment.ts';
import { loadOrder } from './order-records.ts';
import type { OrdersSystems } from './orders-systems.ts';
import { recordCarrierDecision } from './redirect-records.ts';
import type { CarrierRedirect } from './systems/carrier/carrier-records.ts';
import type { WorldChange } from './systems/carrier/carrier-world.ts';

const orderParams = z.strictObject({ order_id: z.string().min(1).max(100) });
const redirectRef = z.strictObject({
  shipment_id: z.string().min(1).max(100).optional(),
  request_id: z.string().min(1).max(100).optional(),
  decision: z.enum(['accepted', 'declined']).optional(),
});

type WorldResult = Record<string, unknown>;

/**
 * POST /test-api/simulate for the warehouse and the carrier: the world moving on while an agent talks.
 * Each action changes the external system and the order as the order service would on hearing of
 * it (the version is bumped), in one transaction. Refusals answer {applied: false, reason}.
 */
export async function simulateOrdersWorld(
  db: SqlDatabase,
  systems: OrdersSystems,
  now: () => number,
  target: string,
  action: string,
  params: Record<string, unknown>,
): Promise<WorldResult | null> {
  if (target === 'warehouse') {
    const step = WAREHOUSE_STEPS[action];
    if (!step) return null;
    const parsed = orderParams.safeParse(params);
    if (!parsed.success) return { applied: false, reason: 'params must be {order_id}' };
    return db.transaction((tx) => step(tx, systems, parsed.data.order_id, now()));
  }
  if (target === 'carrier') {
    const parsed = redirectRef.safeParse(params);
    if (!parsed.success)
      return { applied: false, reason: 'params must be {shipment_id | request_id, decision?}' };
    const ref = { shipmentId: parsed.data.shipment_id, requestId: parsed.data.request_id };
    if (!ref.shipmentId && !ref.requestId)
      return { applied: false, reason: 'give shipment_id or request_id' };
    switch (action) {
      case 'decide_redirect':
        if (!parsed.data.decision) return { applied: false, reason: 'decision must be accepted or declined' };
        return heardFromCarrier(db, await systems.carrierWorld.decideRedirect(ref, parsed.data.decision));
      case 'complete_redirect':
        return heardFromCarrier(db, await systems.carrierWorld.completeRedirect(ref));
      case 'deliver':
        if (!ref.shipmentId) return { applied: false, reason: 'deliver needs shipment_id' };
        return db.transaction((tx) => deliver(tx, systems, ref.shipmentId!, now()));
      default:
        return null;
    }
  }
  return null;
}

type WarehouseStep = (
  tx: SqlExecutor,
  systems: OrdersSystems,
  orderId: string,
  at: number,
) => Promise<WorldResult>;

const WAREHOUSE_STEPS: Readonly<Record<string, WarehouseStep>> = {
  async lock_order(tx, systems, orderId, at) {
    const from = await systems.warehouse.advance(tx, orderId, ['open'], 'locked');
    if (!from) return { applied: false, reason: 'the warehouse has no open order with this id' };
    return moveOrder(tx, orderId, EDITABLE_STATES, 'locked_for_warehouse', at);
  },
  async create_label(tx, systems, orderId, at) {
    const order = await loadOrder(tx, orderId);
    const from = await systems.warehouse.advance(tx, orderId, ['locked'], 'label_created');
    if (!order || !from) return { applied: false, reason: 'the warehouse has no locked order with this id' };
    const shipmentId = await shipDemoOrder(tx, systems, {
      label: orderId,
      orderId,
      tenant: order.tenant,
      status: 'label_created',
      redirectEligible: true,
      address: order.deliveryAddress,
      at,
    });
    return {
      ...(await moveOrder(tx, orderId, ['locked_for_warehouse'], 'label_created', at)),
      shipment_id: shipmentId,
    };
  },
  async hand_to_carrier(tx, systems, orderId, at) {
    const order = await loadOrder(tx, orderId);
    const from = await systems.warehouse.advance(tx, orderId, ['label_created'], 'handed_to_carrier');
    if (!order?.shipment || !from)
      return { applied: false, reason: 'the warehouse has no labelled order with this id' };
    await systems.carrierWorld.moveParcel(tx, order.shipment.id, ['label_created'], 'in_transit');
    return moveOrder(tx, orderId, ['label_created'], 'handed_to_carrier', at);
  },
};

async function deliver(
  tx: SqlExecutor,
  systems: OrdersSystems,
  shipmentId: string,
  at: number,
): Promise<WorldResult> {
  const moved = await systems.carrierWorld.moveParcel(tx, shipmentId, ['in_transit'], 'delivered');
  if (!moved.applied) return moved;
  const [row] = await tx.query<{ order_id: string }>('SELECT order_id FROM shipments WHERE id = ?', [
    shipmentId,
  ]);
  return row ? moveOrder(tx, row.order_id, ['handed_to_carrier'], 'delivered', at) : { applied: true };
}

/**
 * The order service hears the carrier's decision on a redirect request (as a carrier notification
 * would tell it): a declined or completed request no longer keeps the parcel from a new one.
 */
async function heardFromCarrier(
  db: SqlDatabase,
  change: WorldChange<CarrierRedirect>,
): Promise<WorldChange<CarrierRedirect>> {
  if (change.applied) await recordCarrierDecision(db, change.value.request_id, change.value.status);
  return change;
}

/** The order service hears of the move: new state, new version. */
async function moveOrder(
  tx: SqlExecutor,
  orderId: string,
  from: readonly FulfilmentState[],
  to: FulfilmentState,
  at: number,
): Promise<WorldResult> {
  const marks = from.map(() => '?').join(', ');
  const changed = await tx.execute(
    `UPDATE orders SET state = ?, version = version + 1, updated_at = ? WHERE id = ? AND state IN (${marks})`,
    [to, at, orderId, ...from],
  );
  const order = await loadOrder(tx, orderId);
  return {
    applied: changed === 1,
    order_id: orderId,
    fulfilment_state: order?.state ?? null,
    version: order?.version ?? null,
  };
}
