import type { SqlDatabase } from 'toolgate';
import { DEMO_ORDERS, demoId } from './demo-orders.ts';
import { shipDemoOrder } from './demo-shipment.ts';
import type { FulfilmentState } from './fulfilment.ts';
import { joinList } from './order-records.ts';
import type { OrdersSystems } from './orders-systems.ts';
import type { CarrierShipmentStatus } from './systems/carrier/carrier-records.ts';
import type { WarehouseOrderStatus } from './systems/warehouse/simulated-warehouse.ts';

const WAREHOUSE_STATUS: Partial<Record<FulfilmentState, WarehouseOrderStatus>> = {
  pending: 'open',
  address_change_allowed: 'open',
  locked_for_warehouse: 'locked',
  label_created: 'label_created',
  handed_to_carrier: 'handed_to_carrier',
  delivered: 'handed_to_carrier',
};
const CARRIER_STATUS: Partial<Record<FulfilmentState, CarrierShipmentStatus>> = {
  label_created: 'label_created',
  handed_to_carrier: 'in_transit',
  delivered: 'delivered',
};

/** Inserts the demo orders and the warehouse's and carrier's view of them; does nothing if present. */
export async function seedDemoWorld(db: SqlDatabase, systems: OrdersSystems, now: number): Promise<void> {
  await db.transaction(async (tx) => {
    const present = await tx.query('SELECT id FROM orders WHERE id = ?', [
      demoId('ord_', DEMO_ORDERS[0]!.label),
    ]);
    if (present.length > 0) return;
    for (const demo of DEMO_ORDERS) {
      const orderId = demoId('ord_', demo.label);
      await tx.execute(
        `INSERT INTO orders (id, tenant, customer_subject, version, state, delivery_address, payment_regions,
           pending_change_id, placed_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
        [
          orderId,
          demo.tenant,
          demo.owner,
          demo.version,
          demo.state,
          JSON.stringify(demo.address),
          joinList(demo.paymentRegions),
          now,
          now,
        ],
      );
      for (const [line, item] of demo.items.entries()) {
        await tx.execute(
          'INSERT INTO order_items (order_id, line, sku, name, quantity, ships_only_to) VALUES (?, ?, ?, ?, ?, ?)',
          [
            orderId,
            line + 1,
            item.sku,
            item.name,
            item.quantity,
            item.shipsOnlyTo ? joinList(item.shipsOnlyTo) : null,
          ],
        );
      }
      const warehouseStatus = WAREHOUSE_STATUS[demo.state];
      if (warehouseStatus) {
        await systems.warehouse.receiveOrder(tx, {
          orderId,
          tenant: demo.tenant,
          address: demo.address,
          status: warehouseStatus,
        });
      }
      const carrierStatus = CARRIER_STATUS[demo.state];
      if (carrierStatus) {
        await shipDemoOrder(tx, systems, {
          label: demo.label,
          orderId,
          tenant: demo.tenant,
          status: carrierStatus,
          redirectEligible: demo.redirectEligible ?? true,
          address: demo.address,
          at: now,
        });
      }
    }
  });
}

/** Removes every order, request record and the external systems' state. */
export async function resetDemoWorld(db: SqlDatabase, systems: OrdersSystems): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of [
      'shipment_redirect_requests',
      'order_address_changes',
      'shipments',
      'order_items',
      'orders',
    ]) {
      await tx.execute(`DELETE FROM ${table}`);
    }
  });
  await systems.warehouse.reset();
  await systems.carrierWorld.reset();
}
