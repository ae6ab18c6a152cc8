import type { Migration } from '../store/sql-database.ts';

/**
 * Operation records and the review log. The unique key (tenant, subject, idem_key) is what makes a
 * reservation atomic. `next_check_at` holds the lease expiry while a record is in progress and the
 * next reconciliation while its outcome is unknown, so one index serves every background scan.
 */
export const operationsMigration: Migration = {
  id: '0001_operations',
  sql: `CREATE TABLE operations (
    id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    subject TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    tool TEXT NOT NULL,
    contract_version TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    content_hash TEXT,
    mode TEXT NOT NULL,
    status TEXT NOT NULL,
    envelope TEXT,
    attempts INTEGER NOT NULL,
    lease_expires_at BIGINT,
    next_check_at BIGINT,
    reconcile_attempts INTEGER NOT NULL,
    reconcile_note TEXT,
    checkpoints TEXT NOT NULL,
    external_refs TEXT NOT NULL,
    correlation_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    CONSTRAINT operations_key UNIQUE (tenant, subject, idem_key)
  );
  CREATE INDEX operations_due ON operations (status, next_check_at);
  CREATE INDEX operations_expiry ON operations (expires_at);
  CREATE INDEX operations_content ON operations (tenant, subject, tool, content_hash) WHERE content_hash IS NOT NULL;
  CREATE TABLE operation_reviews (
    operation_id TEXT NOT NULL,
    tenant TEXT NOT NULL,
    operator TEXT NOT NULL,
    previous_status TEXT NOT NULL,
    resolution TEXT NOT NULL,
    note TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (operation_id, at)
  )`,
};
