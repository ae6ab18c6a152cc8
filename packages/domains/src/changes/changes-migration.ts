import type { Migration } from 'toolgate';

/** The domain's own tables: the service catalog (CMDB) and its maintenance windows. */
export const changesCatalogMigration: Migration = {
  id: 'changes_0001_catalog',
  sql: `CREATE TABLE changes_services (
      tenant TEXT NOT NULL,
      service_id TEXT NOT NULL,
      name TEXT NOT NULL,
      aliases TEXT NOT NULL,
      owner_group TEXT NOT NULL,
      criticality TEXT NOT NULL,
      status TEXT NOT NULL,
      PRIMARY KEY (tenant, service_id));
    CREATE TABLE changes_maintenance_windows (
      tenant TEXT NOT NULL,
      service_id TEXT NOT NULL,
      environment TEXT NOT NULL,
      weekday INTEGER NOT NULL,
      start_minute INTEGER NOT NULL,
      length_minutes INTEGER NOT NULL,
      PRIMARY KEY (tenant, service_id, environment, weekday, start_minute))`,
};

/**
 * One row per change_create operation that began creating a change: which principal asked for what
 * content, and whether the change exists yet (creating, while its outcome is not established;
 * created). Rows of operations that created nothing are removed. change_create decides on a new
 * request against these rows under a lock on the service's catalog row, so identical requests under
 * different keys cannot both pass (see change-create-claims.ts).
 */
export const changesCreateClaimsMigration: Migration = {
  id: 'changes_0003_create_claims',
  sql: `CREATE TABLE changes_create_claims (
      operation_id TEXT PRIMARY KEY,
      tenant TEXT NOT NULL,
      subject TEXT NOT NULL,
      service_id TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at BIGINT NOT NULL);
    CREATE INDEX changes_create_claims_by_content ON changes_create_claims (tenant, subject, content_hash)`,
};
