import type { Principal, SqlExecutor } from 'toolgate';
import type { PaymentRegion } from './destination-rules.ts';
import type { FulfilmentState } from './fulfilment.ts';
import { type PostalAddress, parseStoredAddress } from './postal-address.ts';
import { type OpenRedirectRequest, openRequestOf } from './redirect-records.ts';

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
  shipment_id: string | null;
  carrier: string | null;
  tracking_id: string | null;
  redirect_request_id: string | null;
  redirect_status: OpenRedirectRequest['status'] | null;
  redirect_carrier_status: OpenRedirectRequest['carrierStatus'];
  items: string | ItemRow[] | null;
};
type ItemRow = { sku: string; name: string; quantity: number; ships_only_to: string | null };

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

/** The fields of one item in the order's JSON array of items. */
const ITEM_FIELDS = `'sku', i.sku, 'name', i.name, 'quantity', i.quantity,
      'ships_only_to', i.ships_only_to`;

const loadOrderSql = (executor: SqlExecutor) =>
  // CAST keeps SQLite (STAT4) from re-preparing this statement on every call.
  `SELECT o.id, o.tenant, o.customer_subject, o.version, o.state, o.delivery_address, o.payment_regions,
     o.pending_change_id, s.id AS shipment_id, s.carrier, s.tracking_id,
     r.request_id AS redirect_request_id, r.status AS redirect_status, r.carrier_status AS redirect_carrier_status,
     (SELECT ${executor.jsonArrayAgg(ITEM_FIELDS, 'i.line')} FROM order_items i WHERE i.order_id = o.id) AS items
   FROM orders o
   LEFT JOIN shipments s ON s.order_id = o.id
   LEFT JOIN shipment_redirect_requests r ON r.shipment_id = s.id AND ${openRequestOf('r')}
   WHERE o.id = CAST(? AS TEXT)`;

/**
 * Loads an order with its items and shipment, whoever owns it, in one statement: the shipment and its
 * open redirect are at most one row each, the items come as one JSON array.
 */
export async function loadOrder(executor: SqlExecutor, orderId: string): Promise<OrderRecord | null> {
  const rows = await executor.query<OrderRow>(loadOrderSql(executor), [orderId]);
  const row = rows[0];
  if (!row) return null;
  // SQLite answers JSON as text, PostgreSQL parses it; no items is [] or NULL.
  const items = (typeof row.items === 'string' ? JSON.parse(row.items) : (row.items ?? [])) as ItemRow[];
  const openRedirect: OpenRedirectRequest | null =
    row.redirect_request_id === null
      ? null
      : {
          requestId: row.redirect_request_id,
          status: row.redirect_status!,
          carrierStatus: row.redirect_carrier_status,
        };
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
    shipment:
      row.shipment_id === null
        ? null
        : { id: row.shipment_id, carrier: row.carrier!, trackingId: row.tracking_id! },
  };
}

/** Lists are stored as comma-separated text (portable across both databases). */
export function joinList(values: readonly string[]): string {
  return values.join(',');
}

function splitList(text: string): string[] {
  return text.length === 0 ? [] : text.split(',');
}
