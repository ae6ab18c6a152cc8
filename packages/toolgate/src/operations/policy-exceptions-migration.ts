import type { Migration } from '../store/sql-database.ts';

/**
 * Exceptions a person granted to a rule (first kind: a maintenance window), one row each. A revoked
 * exception keeps its row, with who revoked it and when, so the audit can always name what a change
 * ran under. Times are epoch milliseconds.
 */
export const policyExceptionsMigration: Migration = {
  id: '0004_policy_exceptions',
  sql: `CREATE TABLE policy_exceptions (
    exception_id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    kind TEXT NOT NULL,
    service_id TEXT NOT NULL,
    environment TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    reason TEXT NOT NULL,
    granted_by TEXT NOT NULL,
    granted_at BIGINT NOT NULL,
    revoked_by TEXT,
    revoked_at BIGINT
  );
  CREATE INDEX policy_exceptions_covering ON policy_exceptions (tenant, kind, service_id, environment, ends_at);
  CREATE INDEX policy_exceptions_tenant ON policy_exceptions (tenant, exception_id)`,
};
