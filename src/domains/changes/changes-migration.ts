import type { Migration } from '../../store/sql-database.ts';

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
