import type { Migration } from '../store/sql-database.ts';

const AUDIT_COLUMNS = `at BIGINT NOT NULL,
    tenant TEXT NOT NULL,
    subject TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    tool TEXT,
    contract_version TEXT,
    operation_id TEXT,
    status TEXT NOT NULL,
    code TEXT,
    replayed INTEGER NOT NULL,
    correlation_id TEXT NOT NULL,
    trace_id TEXT,
    detail TEXT NOT NULL`;

const AUDIT_INDEXES = `CREATE INDEX audit_log_tenant ON audit_log (tenant, seq);
  CREATE INDEX audit_log_operation ON audit_log (operation_id, seq);
  CREATE INDEX audit_log_at ON audit_log (at);
  ALTER TABLE operations ADD COLUMN request_summary TEXT`;

/**
 * The durable audit trail and the operator's view of a request. `audit_log` is append-only: the
 * gateway inserts and the retention job deletes whole expired rows; nothing updates one. `seq` orders
 * entries and is the API's cursor. `operations.request_summary` holds what an operator needs to
 * recognise an operation (scalar arguments, never the fields a tool marks sensitive).
 */
export const auditMigration: Migration = {
  id: '0002_audit_log',
  sql: {
    sqlite: `CREATE TABLE audit_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, ${AUDIT_COLUMNS});
  ${AUDIT_INDEXES}`,
    postgres: `CREATE TABLE audit_log (seq BIGSERIAL PRIMARY KEY, ${AUDIT_COLUMNS});
  ${AUDIT_INDEXES}`,
  },
};
