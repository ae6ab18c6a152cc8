import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { SqlDatabase } from '../store/sql-database.ts';
import {
  OPEN_SQL,
  type OperationRecord,
  type OperationRow,
  type OperationStatus,
  recordFromRow,
} from './operation-record.ts';

/**
 * The statements of the background reconciler. Several processes may run them against one
 * PostgreSQL database: a claim locks the rows it takes with SKIP LOCKED and pushes their next check
 * forward in the same statement, so each due record goes to one process; every settlement is
 * conditional on the record still being unknown, so a late answer never overwrites a settled one.
 */
export class ReconcileQueue {
  constructor(private readonly db: SqlDatabase) {}

  /** Records in progress whose lease has run out (their delivery stopped answering). */
  async expiredLeases(now: number, limit: number): Promise<OperationRecord[]> {
    const rows = await this.db.query<OperationRow>(
      `SELECT * FROM operations WHERE ${OPEN_SQL} AND status = 'in_progress' AND next_check_at <= ?
        ORDER BY next_check_at LIMIT ?`,
      [now, limit],
    );
    return rows.map(recordFromRow);
  }

  /** Takes up to `limit` due unknown outcomes for this process until `claimUntil`. */
  async claimDue(now: number, limit: number, claimUntil: number): Promise<OperationRecord[]> {
    const lock = this.db.lockingClause('update_skip_locked');
    const rows = await this.db.query<OperationRow>(
      `UPDATE operations SET next_check_at = ? WHERE id IN (
        SELECT id FROM operations WHERE ${OPEN_SQL} AND status = 'outcome_unknown' AND next_check_at <= ?
        ORDER BY next_check_at LIMIT ?${lock}) RETURNING *`,
      [claimUntil, now, limit],
    );
    return rows.map(recordFromRow);
  }

  /** The owning system answered: the record takes the outcome it established. */
  async settle(
    id: string,
    status: OperationStatus,
    envelope: OutcomeEnvelope,
    now: number,
    expiresAt: number,
  ): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE operations SET status = ?, envelope = ?, reconcile_attempts = reconcile_attempts + 1,
        reconcile_note = NULL, next_check_at = NULL, updated_at = ?, expires_at = ?
        WHERE id = ? AND status = 'outcome_unknown'`,
      [status, JSON.stringify(envelope), now, expiresAt, id],
    );
    return changed === 1;
  }

  /** Still unknown: ask again at `nextCheckAt`. */
  async defer(id: string, note: string, now: number, nextCheckAt: number): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE operations SET reconcile_attempts = reconcile_attempts + 1, reconcile_note = ?,
        next_check_at = ?, updated_at = ? WHERE id = ? AND status = 'outcome_unknown'`,
      [note, nextCheckAt, now, id],
    );
    return changed === 1;
  }

  /** Reconciliation gave up: the record waits in the review queue for an operator. */
  async toReview(id: string, note: string, envelope: OutcomeEnvelope, now: number): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE operations SET status = 'needs_review', envelope = ?, reconcile_attempts = reconcile_attempts + 1,
        reconcile_note = ?, next_check_at = NULL, updated_at = ? WHERE id = ? AND status = 'outcome_unknown'`,
      [JSON.stringify(envelope), note, now, id],
    );
    return changed === 1;
  }
}
