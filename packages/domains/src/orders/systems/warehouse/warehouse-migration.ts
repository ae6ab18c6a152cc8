import type { Migration } from 'toolgate';

/**
 * The simulated warehouse's own state. It keeps no addresses, only a digest with the country and
 * postal code, which is all a test needs to tell which address it would ship to.
 */
export const warehouseMigration: Migration = {
  id: 'orders_0002_ext_warehouse',
  sql: `CREATE TABLE ext_warehouse_orders (
      order_id TEXT PRIMARY KEY,
      tenant TEXT NOT NULL,
      status TEXT NOT NULL,
      address_digest TEXT NOT NULL,
      country_code TEXT NOT NULL,
      postal_code TEXT NOT NULL,
      updated_at BIGINT NOT NULL);
    CREATE TABLE ext_warehouse_address_updates (
      operation_id TEXT PRIMARY KEY,
      order_id TEXT NOT NULL,
      tenant TEXT NOT NULL,
      address_digest TEXT NOT NULL,
      country_code TEXT NOT NULL,
      postal_code TEXT NOT NULL,
      applied_at BIGINT NOT NULL);
    CREATE INDEX ext_warehouse_updates_by_order ON ext_warehouse_address_updates (order_id)`,
};
