import type { SqlExecutor } from '../store/sql-database.ts';
import { BACKLOG_STATUSES, type BacklogReading } from '../telemetry/metrics.ts';
import { OPEN_SQL } from './operation-record.ts';

/**
 * How many operations wait per status, and the oldest one's creation time: for settlement (an unknown
 * outcome, a review) or for an approver (a call parked until a person confirms it, or its question expires).
 */
export async function readSettlementBacklog(db: SqlExecutor): Promise<BacklogReading[]> {
  const rows = await db.query<{ status: string; n: unknown; oldest: unknown }>(
    `SELECT status, COUNT(*) AS n, MIN(created_at) AS oldest FROM operations
      WHERE ${OPEN_SQL} AND status IN (${BACKLOG_STATUSES.map((status) => `'${status}'`).join(', ')}) GROUP BY status`,
  );
  return BACKLOG_STATUSES.map((status) => {
    const row = rows.find((r) => r.status === status);
    return {
      status,
      count: row ? Number(row.n) : 0,
      oldestCreatedAt: row && row.oldest !== null ? Number(row.oldest) : null,
    };
  });
}
