import type { SqlDatabase } from '../store/sql-database.ts';
import { SETTLED_FOR_GOOD_SQL } from './operation-record.ts';

/**
 * Rows one purge statement deletes at most. A purge of a million expired rows runs as many short
 * statements, with the event loop free between them, so the gateway's writes keep their turn: one
 * statement over the whole backlog would hold SQLite's write lock (and block its thread) until done.
 */
export const PURGE_BATCH_ROWS = 100;

/**
 * Runs `deleteBatch` (a DELETE of at most `PURGE_BATCH_ROWS` rows) until it deletes fewer; answers how
 * many rows went. After each statement it rests as long as the statement took, so the purge holds the
 * store at most half the time and the calls waiting behind it go first.
 */
export async function deleteInBatches(
  db: SqlDatabase,
  deleteBatch: string,
  params: readonly unknown[],
): Promise<number> {
  let total = 0;
  for (;;) {
    const started = performance.now();
    const deleted = await db.execute(deleteBatch, [...params, PURGE_BATCH_ROWS]);
    total += deleted;
    if (deleted < PURGE_BATCH_ROWS) return total;
    await new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, performance.now() - started)));
  }
}

/**
 * Deletes settled operation records past their retention (DESIGN.md section 4; the period is
 * published in every write/request tool's contract). Records still unknown or awaiting review are
 * kept whatever their age: their outcome is still owed to someone. Returns how many were deleted.
 */
export function purgeExpiredOperations(db: SqlDatabase, now: number): Promise<number> {
  return deleteInBatches(
    db,
    `DELETE FROM operations WHERE id IN (
      SELECT id FROM operations WHERE expires_at <= ? AND ${SETTLED_FOR_GOOD_SQL} ORDER BY expires_at LIMIT ?)`,
    [now],
  );
}
