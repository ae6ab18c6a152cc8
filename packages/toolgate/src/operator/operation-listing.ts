import { operationIdFloor } from '../operations/operation-id.ts';
import { type OperationRow, recordFromRow } from '../operations/operation-record.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import type { OperationsFilter } from './operator-query.ts';

/** One operation as an operator sees it: enough to decide, nothing an agent's arguments hid. */
export interface OperationView {
  readonly operation_id: string;
  readonly tool: string;
  readonly contract_version: string;
  readonly caller: string;
  readonly status: string;
  readonly code: string | null;
  readonly message: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly delivery_attempts: number;
  readonly reconcile_attempts: number;
  readonly last_finding: string | null;
  readonly next_check_at: string | null;
  readonly external_refs: Record<string, string>;
  /** Scalar arguments; sensitive and nested fields are only named under `withheld`. */
  readonly request: Record<string, unknown> | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function operationView(row: OperationRow): OperationView {
  const record = recordFromRow(row);
  const summary = row.request_summary;
  return {
    operation_id: record.id,
    tool: record.tool,
    contract_version: record.contractVersion,
    caller: record.subject,
    status: record.status,
    code: record.envelope?.code ?? null,
    message: record.envelope?.message ?? null,
    created_at: iso(record.createdAt)!,
    updated_at: iso(record.updatedAt)!,
    delivery_attempts: record.attempts,
    reconcile_attempts: record.reconcileAttempts,
    last_finding: record.reconcileNote,
    next_check_at: iso(record.nextCheckAt),
    external_refs: record.externalRefs,
    request: typeof summary === 'string' ? (JSON.parse(summary) as Record<string, unknown>) : null,
  };
}

/** One page of a tenant's operations, oldest first (ids sort by creation time). */
export async function listOperations(
  db: SqlExecutor,
  tenant: string,
  filter: OperationsFilter,
): Promise<OperationRow[]> {
  const where = ['tenant = ?'];
  const params: unknown[] = [tenant];
  if (filter.status !== undefined) {
    where.push('status = ?');
    params.push(filter.status);
  }
  if (filter.tool !== undefined) {
    where.push('tool = ?');
    params.push(filter.tool);
  }
  if (filter.since !== undefined) {
    // Ids sort by creation time: the bound on id keeps the walk of the index to the window.
    where.push('created_at >= ?', 'id >= ?');
    params.push(filter.since, operationIdFloor(filter.since));
  }
  if (filter.afterId !== undefined) {
    where.push('id > ?');
    params.push(filter.afterId);
  }
  params.push(filter.limit);
  return db.query<OperationRow>(
    `SELECT * FROM operations WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`,
    params,
  );
}

/** The tenant's operation by id; another tenant's is as absent as one that never existed. */
export async function findTenantOperation(
  db: SqlExecutor,
  tenant: string,
  id: string,
): Promise<OperationRow | null> {
  const rows = await db.query<OperationRow>('SELECT * FROM operations WHERE id = ? AND tenant = ?', [
    id,
    tenant,
  ]);
  return rows[0] ?? null;
}
