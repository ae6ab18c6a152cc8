import type { SqlDatabase } from '../store/sql-database.ts';
import { SETTLED_FOR_GOOD_SQL } from './operation-record.ts';

/**
 * Deletes settled operation records past their retention (DESIGN.md section 4; the period is
 * published in every write/request tool's contract). Records still unknown or awaiting review are
 * kept whatever their age: their outcome is still owed to someone. Returns how many were deleted.
 */
export function purgeExpiredOperations(db: SqlDatabase, now: number): Promise<number> {
  return db.execute(`DELETE FROM operations WHERE expires_at <= ? AND ${SETTLED_FOR_GOOD_SQL}`, [now]);
}
