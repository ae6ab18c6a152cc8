import type { Principal } from '../../auth/principal.ts';
import type { SqlExecutor } from '../../store/sql-database.ts';
import type { PaymentRegion } from './destination-rules.ts';
import type { FulfilmentState } from './fulfilment.ts';
import { type PostalAddress, parseStoredAddress } from './postal-address.ts';
import { findOpenRedirect, type OpenRedirectRequest } from './redirect-records.ts';

export interface OrderItem {
  readonly sku: string;
  readonly name: string;
  readonly quantity: number;
  readonly shipsOnlyTo: readonly string[] | null;
}

export interface ShipmentRecord {
  readonly id: string;
  readonly carrier: string;
  readonly trackingId: string;
}

/** An order as the domain service reasons about it. */
export interface OrderRecord {
  readonly id: string;
  readonly tenant: string;
  readonly customerSubject: string;
  readonly version: number;
  readonly state: FulfilmentState;
  readonly deliveryAddress: PostalAddress;
  readonly paymentRegions: readonly PaymentRegion[];
  readonly pendingChangeId: string | null;
  /** A redirect request of the parcel whose outcome is unknown or that the carrier has not decided. */
  readonly openRedirect: OpenRedirectRequest | null;
  readonly items: readonly OrderItem[];
  readonly shipment: ShipmentRecord | null;
}

type OrderRow = {
  id: string;
  tenant: string;
  customer_subject: string;
  version: number;
  state: FulfilmentState;
  delivery_address: string;
  payment_regions: string;
  pending_change_id: string | null;
};
type ItemRow = { sku: string; name: string; quantity: number; ships_only_to: string | null };
type ShipmentRow = { id: string; carrier: string; tracking_id: string };

/**
 * Loads an order the principal may see: customers only their own, everyone else their tenant's.
 * Another customer's or tenant's order is indistinguishable from one that does not exist.
 */
export async function findVisibleOrder(
  executor: SqlExecutor,
  principal: Principal,
  orderId: string,
): Promise<OrderRecord | null> {
  const order = await loadOrder(executor, orderId);
  if (!order || order.tenant !== principal.tenant) return null;
  if (principal.actor === 'customer' && order.customerSubject !== principal.subject) return null;
  return order;
}

/** Loads an order with its items and shipment, whoever owns it. */
export async function loadOrder(executor: SqlExecutor, orderId: string): Promise<OrderRecord | null> {
  const rows = await executor.query<OrderRow>(
    `SELECT id, tenant, customer_subject, version, state, delivery_address, payment_regions, pending_change_id
     FROM orders WHERE id = ?`,
    [orderId],
  );
  const row = rows[0];
  if (!row) return null;
  const items = await executor.query<ItemRow>(
    'SELECT sku, name, quantity, ships_only_to FROM order_items WHERE order_id = ? ORDER BY line',
    [orderId],
  );
  const shipments = await executor.query<ShipmentRow>(
    'SELECT id, carrier, tracking_id FROM shipments WHERE order_id = ?',
    [orderId],
  );
  const shipment = shipments[0];
  const openRedirect = shipment ? await findOpenRedirect(executor, shipment.id) : null;
  return {
    id: row.id,
    tenant: row.tenant,
    customerSubject: row.customer_subject,
    version: Number(row.version),
    state: row.state,
    deliveryAddress: parseStoredAddress(row.delivery_address),
    paymentRegions: splitList(row.payment_regions) as PaymentRegion[],
    pendingChangeId: row.pending_change_id,
    openRedirect,
    items: items.map((item) => ({
      sku: item.sku,
      name: item.name,
      quantity: Number(item.quantity),
      shipsOnlyTo: item.ships_only_to === null ? null : splitList(item.ships_only_to),
    })),
    shipment: shipment
      ? { id: shipment.id, carrier: shipment.carrier, trackingId: shipment.tracking_id }
      : null,
  };
}

/** Lists are stored as comma-separated text (portable across both databases). */
export function joinList(values: readonly string[]): string {
  return values.join(',');
}

function splitList(text: string): string[] {
  return text.length === 0 ? [] : text.split(',');
}
