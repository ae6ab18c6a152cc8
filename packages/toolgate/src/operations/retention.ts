import type { SqlDatabase } from '../store/sql-database.ts';
import { SETTLED_FOR_GOOD_SQL } from './operation-record.ts';

/**
 * Rows the first purge statement deletes. A purge of a million expired rows runs as many short
 * statements, with the event loop free between them, so the gateway's writes keep their turn: one
 * statement over the whole backlog would hold SQLite's write lock (and block its thread) until done.
 */
export const PURGE_BATCH_ROWS = 100;
/** The fewest and the most rows a purge statement deletes as the batch follows the statements' time. */
export const PURGE_BATCH_LIMITS = { least: 10, most: 2_000 } as const;
/**
 * How long one purge statement should hold the store: a write that arrives during it waits about this
 * much more. Each next batch is sized from the last one's time to take about this long.
 */
export const PURGE_STATEMENT_TARGET_MS = 1;

/**
 * Runs `deleteBatch` (a DELETE whose last parameter is how many rows it deletes at most) until it
 * deletes fewer than asked; answers how many rows went. The batch is sized so a statement takes about
 * PURGE_STATEMENT_TARGET_MS (a store busy with other writes takes longer per row, so it gets smaller
 * batches), and after each statement the purge rests as long as the statement took: it holds the store
 * at most half the time and the calls waiting behind it go first.
 */
export async function deleteInBatches(
  db: SqlDatabase,
  deleteBatch: string,
  params: readonly unknown[],
): Promise<number> {
  let total = 0;
  let batch = PURGE_BATCH_ROWS;
  for (;;) {
    const started = performance.now();
    const deleted = await db.execute(deleteBatch, [...params, batch]);
    const tookMs = performance.now() - started;
    total += deleted;
    if (deleted < batch) return total;
    batch = nextBatch(batch, tookMs);
    await new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, tookMs)));
  }
}

/** The next batch: scaled to take the target time at the last one's rate, at most doubling. */
export function nextBatch(batch: number, tookMs: number): number {
  const scaled = Math.round((batch * PURGE_STATEMENT_TARGET_MS) / Math.max(tookMs, 0.01));
  return Math.min(PURGE_BATCH_LIMITS.most, 2 * batch, Math.max(PURGE_BATCH_LIMITS.least, scaled));
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
