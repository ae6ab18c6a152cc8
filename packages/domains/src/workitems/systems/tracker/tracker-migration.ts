import type { Migration } from 'toolgate';

/**
 * The simulated tracker's own tables. It is an external system: the domain reaches it only
 * through SimulatedTracker, never by SQL.
 */
export const trackerMigration: Migration = {
  id: 'workitems_0001_ext_tracker',
  sql: `CREATE TABLE ext_tracker_projects (
      tenant TEXT NOT NULL,
      project_key TEXT NOT NULL,
      name TEXT NOT NULL,
      mode TEXT NOT NULL,
      next_seq BIGINT NOT NULL,
      PRIMARY KEY (tenant, project_key));
    CREATE TABLE ext_tracker_items (
      tenant TEXT NOT NULL,
      item_id TEXT NOT NULL,
      project_key TEXT NOT NULL,
      seq BIGINT NOT NULL,
      title TEXT NOT NULL,
      description TEXT NOT NULL,
      type TEXT NOT NULL,
      priority TEXT NOT NULL,
      labels TEXT NOT NULL,
      state TEXT NOT NULL,
      created_by TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      PRIMARY KEY (tenant, item_id));
    CREATE INDEX ext_tracker_items_by_project ON ext_tracker_items (tenant, project_key, seq);
    CREATE TABLE ext_tracker_requests (
      tenant TEXT NOT NULL,
      request_id TEXT NOT NULL,
      project_key TEXT NOT NULL,
      state TEXT NOT NULL,
      item_id TEXT,
      at BIGINT NOT NULL,
      PRIMARY KEY (tenant, request_id))`,
};
