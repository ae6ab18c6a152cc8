import type { SqlExecutor } from '../store/sql-database.ts';
import type { BacklogReading } from '../telemetry/metrics.ts';

/** How many operations wait for settlement per status, and the oldest one's creation time. */
export async function readSettlementBacklog(db: SqlExecutor): Promise<BacklogReading[]> {
  const rows = await db.query<{ status: string; n: unknown; oldest: unknown }>(
    `SELECT status, COUNT(*) AS n, MIN(created_at) AS oldest FROM operations
      WHERE status IN ('outcome_unknown', 'needs_review') GROUP BY status`,
  );
  return (['outcome_unknown', 'needs_review'] as const).map((status) => {
    const row = rows.find((r) => r.status === status);
    return {
      status,
      count: row ? Number(row.n) : 0,
      oldestCreatedAt: row && row.oldest !== null ? Number(row.oldest) : null,
    };
  });
}
