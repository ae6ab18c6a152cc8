import type { Migration } from '../store/sql-database.ts';

/**
 * The first shape of the exceptions table, when one kind with two fixed target columns was known. Kept
 * as it was applied (a migration never changes); 0005 moves its rows to `granted_exceptions`.
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

/**
 * Exceptions a person granted to a rule, one row each, of any kind a module declares. A revoked
 * exception keeps its row, with who revoked it and when, so the audit can always name what an action
 * ran under. Times are epoch milliseconds. What one is for is its `target`, stored as the canonical
 * JSON (RFC 8785) of the declared target object, so a lookup matches exactly one target. The rows of
 * the first kind move over; their two columns were the target's only fields, whose values (a service id
 * and an environment name, both of [A-Za-z0-9._:-]) need no escaping in JSON.
 */
export const exceptionTargetsMigration: Migration = {
  id: '0005_exception_targets',
  sql: `CREATE TABLE granted_exceptions (
    exception_id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    reason TEXT NOT NULL,
    granted_by TEXT NOT NULL,
    granted_at BIGINT NOT NULL,
    revoked_by TEXT,
    revoked_at BIGINT
  );
  INSERT INTO granted_exceptions (exception_id, tenant, kind, target, starts_at, ends_at, reason,
    granted_by, granted_at, revoked_by, revoked_at)
  SELECT exception_id, tenant, kind,
    '{"environment":"' || environment || '","service_id":"' || service_id || '"}',
    starts_at, ends_at, reason, granted_by, granted_at, revoked_by, revoked_at
  FROM policy_exceptions;
  DROP TABLE policy_exceptions;
  CREATE INDEX granted_exceptions_covering ON granted_exceptions (tenant, kind, target, ends_at);
  CREATE INDEX granted_exceptions_tenant ON granted_exceptions (tenant, exception_id)`,
};
