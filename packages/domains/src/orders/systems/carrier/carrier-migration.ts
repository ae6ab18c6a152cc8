import type { Migration } from 'toolgate';

/**
 * The simulated carrier's own state: parcels it knows and the redirect requests it received. Like the
 * warehouse it keeps only a digest, country and postal code of each destination. The partial index
 * lets a parcel carry at most one open (submitted or accepted) redirect.
 */
export const carrierMigration: Migration = {
  id: 'orders_0003_ext_carrier',
  sql: `CREATE TABLE ext_carrier_shipments (
      tracking_id TEXT PRIMARY KEY,
      shipment_id TEXT NOT NULL,
      tenant TEXT NOT NULL,
      status TEXT NOT NULL,
      redirect_eligible INTEGER NOT NULL,
      address_digest TEXT NOT NULL,
      country_code TEXT NOT NULL,
      postal_code TEXT NOT NULL,
      updated_at BIGINT NOT NULL);
    CREATE UNIQUE INDEX ext_carrier_shipments_by_id ON ext_carrier_shipments (shipment_id);
    CREATE TABLE ext_carrier_redirects (
      request_id TEXT PRIMARY KEY,
      tracking_id TEXT NOT NULL,
      shipment_id TEXT NOT NULL,
      tenant TEXT NOT NULL,
      status TEXT NOT NULL,
      address_digest TEXT NOT NULL,
      country_code TEXT NOT NULL,
      postal_code TEXT NOT NULL,
      requested_at BIGINT NOT NULL,
      decided_at BIGINT,
      completed_at BIGINT);
    CREATE UNIQUE INDEX ext_carrier_one_open_redirect ON ext_carrier_redirects (tracking_id)
      WHERE status IN ('submitted', 'accepted')`,
};
