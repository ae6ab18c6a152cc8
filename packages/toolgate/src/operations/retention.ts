import type { SqlDatabase } from '../store/sql-database.ts';
import { SETTLED_FOR_GOOD_SQL } from './operation-record.ts';

/**
 * Rows the first purge statement deletes. A purge of a million expired rows runs as many short
 * statements, with the event loop free between them, so the gateway's writes keep their turn: one
 * statement over the whole backlog would hold SQLite's write lock (and block its thread) until done.
 */
export const PURGE_BATCH_ROWS = 100;
/** The fewest and the most rows a purge statement deletes as the batch follows the statements' time. */
export const PURGE_BATCH_LIMITS = { least: 1, most: 2_000 } as const;
/**
 * How long one purge statement should take. Where writes run one at a time (SQLite), a write that
 * arrives during a statement waits for it, so a statement must cost no more than a write's own spread
 * (a durable write takes 0.1-0.2 ms there, its p99 under 1 ms): 0.15 ms deletes 3 to 20 rows. Where
 * writes of other rows run beside it (PostgreSQL), a statement delays none of them, and a longer one
 * pays its round trip over more rows.
 */
export const PURGE_STATEMENT_TARGET_MS = { writesOneAtATime: 0.15, sideBySide: 1 } as const;

/**
 * Runs `deleteBatch` (a DELETE whose last parameter is how many rows it deletes at most) until it
 * deletes fewer than asked; answers how many rows went. The batch is sized so a statement takes about
 * `targetMs` (by default the store's PURGE_STATEMENT_TARGET_MS), timed by itself: on a busy store a
 * statement waits behind other writes (on SQLite it shares their group commit), and sized by that wait
 * every batch would shrink to the least while the writes it waited for gained nothing. After each statement the purge
 * rests as long as the statement took, at least a millisecond: it holds the store at most half the
 * time and the calls waiting behind it go first.
 */
export async function deleteInBatches(
  db: SqlDatabase,
  deleteBatch: string,
  params: readonly unknown[],
  targetMs: number = db.writesOneAtATime
    ? PURGE_STATEMENT_TARGET_MS.writesOneAtATime
    : PURGE_STATEMENT_TARGET_MS.sideBySide,
): Promise<number> {
  let total = 0;
  let batch = PURGE_BATCH_ROWS;
  for (;;) {
    let tookMs = 0;
    const deleted = await db.transaction(async (tx) => {
      const started = performance.now();
      const rows = await tx.execute(deleteBatch, [...params, batch]);
      tookMs = performance.now() - started;
      return rows;
    });
    total += deleted;
    if (deleted < batch) return total;
    batch = nextBatch(batch, tookMs, targetMs);
    await new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, tookMs)));
  }
}

/** The next batch: scaled to take `targetMs` at the last one's rate, at most doubling. */
export function nextBatch(batch: number, tookMs: number, targetMs: number): number {
  const scaled = Math.round((batch * targetMs) / Math.max(tookMs, 0.01));
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
