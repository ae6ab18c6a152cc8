import type { Migration } from 'toolgate';

/** First change number handed out after a reset; ids read CHG-10001, CHG-10002, ... */
export const FIRST_CHANGE_NUMBER = 10001;

/**
 * The simulated change platform's own tables. `ext_change_steps` is its deduplication memory:
 * one row per (operation id, step) it applied, so a repeated step returns what the first returned.
 */
export const changePlatformMigration: Migration = {
  id: 'changes_0002_change_platform',
  sql: `CREATE TABLE ext_change_records (
      change_id TEXT PRIMARY KEY,
      change_number BIGINT NOT NULL UNIQUE,
      tenant TEXT NOT NULL,
      operation_id TEXT UNIQUE,
      requested_by TEXT NOT NULL,
      service_id TEXT NOT NULL,
      environment TEXT NOT NULL,
      summary TEXT NOT NULL,
      start_time TEXT NOT NULL,
      start_at BIGINT NOT NULL,
      duration_minutes INTEGER NOT NULL,
      requested_risk TEXT NOT NULL,
      effective_risk TEXT NOT NULL,
      approval_required INTEGER NOT NULL,
      approval_group TEXT,
      state TEXT NOT NULL,
      implementation_plan TEXT,
      rollback_plan TEXT,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL);
    CREATE INDEX ext_change_records_by_tenant ON ext_change_records (tenant, state, change_number);
    CREATE TABLE ext_change_steps (
      operation_id TEXT NOT NULL,
      step TEXT NOT NULL,
      change_id TEXT,
      applied_at BIGINT NOT NULL,
      PRIMARY KEY (operation_id, step));
    CREATE TABLE ext_change_counter (id INTEGER PRIMARY KEY, last_number BIGINT NOT NULL);
    INSERT INTO ext_change_counter (id, last_number) VALUES (1, ${FIRST_CHANGE_NUMBER - 1});
    CREATE TABLE ext_change_freezes (
      id TEXT PRIMARY KEY,
      tenant TEXT NOT NULL,
      starts_at BIGINT NOT NULL,
      ends_at BIGINT NOT NULL,
      environments TEXT NOT NULL,
      reason TEXT NOT NULL)`,
};
