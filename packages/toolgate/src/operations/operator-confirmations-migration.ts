import type { Migration } from '../store/sql-database.ts';

/**
 * Questions parked for an approver (the `operator` confirmation fallback): one row per parked
 * operation, holding what its later execution needs (the requester's principal, the validated
 * arguments, the question as the tool built it and its digest) and how it was answered. The operation
 * record itself waits in status `awaiting_confirmation`.
 */
export const operatorConfirmationsMigration: Migration = {
  id: '0003_operator_confirmations',
  sql: `CREATE TABLE operator_confirmations (
    operation_id TEXT PRIMARY KEY,
    tenant TEXT NOT NULL,
    requester TEXT NOT NULL,
    principal TEXT NOT NULL,
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL,
    question TEXT NOT NULL,
    digest TEXT NOT NULL,
    state TEXT NOT NULL,
    choice TEXT,
    answered_by TEXT,
    note TEXT,
    asked_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    answered_at BIGINT
  );
  CREATE INDEX operator_confirmations_pending ON operator_confirmations (tenant, state, operation_id);
  CREATE INDEX operations_awaiting ON operations (status, expires_at)`,
};
