import type { Migration } from 'toolgate';

/**
 * The order domain's tables. Addresses are JSON text. `pending_change_id` names the address change
 * that is committed on our side but not yet confirmed by the warehouse: while it is set the order
 * keeps its previous address and refuses other changes. The two request tables are keyed by operation
 * id, so a reconciler and a late delivery can never both act on one operation.
 */
export const ordersMigration: Migration = {
  id: 'orders_0001_orders',
  sql: `CREATE TABLE orders (
      id TEXT PRIMARY KEY,
      tenant TEXT NOT NULL,
      customer_subject TEXT NOT NULL,
      version INTEGER NOT NULL,
      state TEXT NOT NULL,
      delivery_address TEXT NOT NULL,
      payment_regions TEXT NOT NULL,
      pending_change_id TEXT,
      placed_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL);
    CREATE INDEX orders_by_owner ON orders (tenant, customer_subject);
    CREATE TABLE order_items (
      order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      line INTEGER NOT NULL,
      sku TEXT NOT NULL,
      name TEXT NOT NULL,
      quantity INTEGER NOT NULL,
      ships_only_to TEXT,
      PRIMARY KEY (order_id, line));
    CREATE TABLE shipments (
      id TEXT PRIMARY KEY,
      order_id TEXT NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
      tenant TEXT NOT NULL,
      carrier TEXT NOT NULL,
      tracking_id TEXT NOT NULL,
      created_at BIGINT NOT NULL);
    CREATE TABLE order_address_changes (
      operation_id TEXT PRIMARY KEY,
      order_id TEXT,
      tenant TEXT,
      new_address TEXT,
      status TEXT NOT NULL,
      code TEXT,
      resulting_version INTEGER,
      created_at BIGINT NOT NULL,
      settled_at BIGINT);
    CREATE TABLE shipment_redirect_requests (
      request_id TEXT PRIMARY KEY,
      order_id TEXT,
      shipment_id TEXT,
      tenant TEXT,
      new_address TEXT,
      status TEXT NOT NULL,
      code TEXT,
      created_at BIGINT NOT NULL,
      settled_at BIGINT)`,
};

/**
 * A parcel has at most one redirect request that is in flight (sending: its outcome may still be
 * unknown) or received and undecided at the carrier, as far as the shop has heard (`carrier_status`,
 * updated when the carrier's decision arrives). A second request is refused by this index, so no new
 * request is sent while an earlier one may still reach the carrier.
 */
export const redirectGuardMigration: Migration = {
  id: 'orders_0004_redirect_guard',
  sql: `ALTER TABLE shipment_redirect_requests ADD COLUMN carrier_status TEXT;
    CREATE UNIQUE INDEX shipment_redirect_one_open ON shipment_redirect_requests (shipment_id)
      WHERE status = 'sending' OR (status = 'sent' AND carrier_status IN ('submitted', 'accepted'))`,
};
