import type { Migration } from '../store/sql-database.ts';

/**
 * Indexes for what the operator API reads, so its pages cost the same in a store of ten operations
 * and of millions: a tenant's operations in id order, alone or filtered by status or tool (each
 * listing walks one index in the order it pages, `LIMIT` rows at most); a tenant's audit entries by
 * caller in `seq` order; and a tenant's entries by time, which bounds the activity charts to their
 * window instead of the tenant's whole history.
 */
export const operatorQueryIndexesMigration: Migration = {
  id: '0006_operator_query_indexes',
  sql: `CREATE INDEX operations_tenant_id ON operations (tenant, id);
  CREATE INDEX operations_tenant_status ON operations (tenant, status, id);
  CREATE INDEX operations_tenant_tool ON operations (tenant, tool, id);
  CREATE INDEX audit_log_tenant_subject ON audit_log (tenant, subject, seq);
  CREATE INDEX audit_log_tenant_at ON audit_log (tenant, at)`,
};
