import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { SqlDatabase, SqlExecutor } from '../store/sql-database.ts';
import {
  type OperationRecord,
  type OperationRow,
  type OperationStatus,
  recordFromRow,
  SETTLED_FOR_GOOD_SQL,
} from './operation-record.ts';
import { RESERVE, ReservationBatch, reservationParams } from './reservation-batch.ts';

/** What one delivery asks to reserve: the identity of the new record, and its first lease. */
export type ReservationRequest = Pick<
  OperationRecord,
  | 'id'
  | 'tenant'
  | 'subject'
  | 'key'
  | 'tool'
  | 'contractVersion'
  | 'fingerprint'
  | 'contentHash'
  | 'mode'
  | 'correlationId'
  | 'expiresAt'
> & {
  readonly now: number;
  readonly leaseExpiresAt: number;
  /** The operator's view of the request (see request-summary.ts), as JSON. */
  readonly requestSummary?: string;
};

const FIND_BY_KEY = 'SELECT * FROM operations WHERE tenant = ? AND subject = ? AND idem_key = ?';

/**
 * PostgreSQL: the reservation and, when it inserted nothing, the record holding the key, in one round
 * trip. The lookup reads the statement's snapshot, so a record committed by a delivery the INSERT waited
 * on is not in it: then `reserved_id` and `id` are both null and the caller looks again.
 */
const RESERVE_OR_FIND_POSTGRES = `WITH ins AS (${RESERVE})
  SELECT ins.id AS reserved_id, o.* FROM (SELECT 1) AS one LEFT JOIN ins ON TRUE
  LEFT JOIN operations o ON ins.id IS NULL AND o.tenant = ? AND o.subject = ? AND o.idem_key = ?`;

const SETTLE = `UPDATE operations SET status = ?, envelope = ?, lease_expires_at = NULL, next_check_at = ?,
  updated_at = ?, expires_at = ? WHERE id = ? AND status IN ('in_progress', 'outcome_unknown')`;

const TAKE_OVER = `UPDATE operations SET status = 'in_progress', envelope = NULL, attempts = attempts + 1,
  lease_expires_at = ?, next_check_at = ?, correlation_id = ?, updated_at = ?
  WHERE id = ? AND status = 'failed' RETURNING *`;

/** How an executed operation settles: its status and envelope, when, when to check again, when it expires. */
export interface Settlement {
  readonly status: OperationStatus;
  readonly envelope: OutcomeEnvelope;
  readonly now: number;
  /** When the reconciler looks again (an unknown outcome); null once settled for good. */
  readonly nextCheckAt: number | null;
  readonly expiresAt: number;
}

/** What a reservation found: this delivery holds the key, or the record that holds it (null: look again). */
export type Reservation =
  | { readonly reserved: true }
  | { readonly reserved: false; readonly existing: OperationRecord | null };

/**
 * The statements on the hot path of every write: reserve, look up, settle. The reservation is a single
 * INSERT ... ON CONFLICT DO NOTHING, so the database alone decides which delivery executes; on
 * PostgreSQL the same statement reads the record a lost reservation joins, and a settlement commits with
 * its audit entry in one statement.
 */
export class OperationStore {
  /** PostgreSQL: reservations that arrive while one is out go together as the next statement. */
  readonly #batch: ReservationBatch | null;

  constructor(private readonly db: SqlDatabase) {
    this.#batch = db.supportsDataModifyingCtes
      ? new ReservationBatch(db, (r) => this.#reserveOrFindOne(r))
      : null;
  }

  /** True when this delivery created the record and so must execute it. */
  async reserve(r: ReservationRequest): Promise<boolean> {
    const rows = await this.db.query(RESERVE, reservationParams(r));
    return rows.length === 1;
  }

  /**
   * `reserve` for a key a lookup just found free, and when the key was taken meanwhile the record
   * holding it. The caller looks the key up first (a plain read, on PostgreSQL a pipelined read
   * lane's), so a replay writes nothing but its audit entry; records are only removed by expiry, which
   * the caller handles. The INSERT decides as ever: on PostgreSQL in one statement with the lookup of
   * the record that won (missing when it committed during the INSERT: null, look again), the
   * reservations that arrive while one is out sent together as the next statement
   * (reservation-batch.ts); on SQLite by the INSERT and a second lookup.
   */
  async reserveOrFind(r: ReservationRequest): Promise<Reservation> {
    if (this.#batch) return this.#batch.reserveOrFind(r);
    if (await this.reserve(r)) return { reserved: true };
    return { reserved: false, existing: await this.findByKey(r.tenant, r.subject, r.key) };
  }

  /** PostgreSQL: one reservation and, when it inserted nothing, the record holding the key, in one statement. */
  async #reserveOrFindOne(r: ReservationRequest): Promise<Reservation> {
    const [row] = await this.db.query<OperationRow & { reserved_id: string | null }>(
      RESERVE_OR_FIND_POSTGRES,
      [...reservationParams(r), r.tenant, r.subject, r.key],
    );
    if (row?.reserved_id) return { reserved: true };
    return { reserved: false, existing: row?.id ? recordFromRow(row) : null };
  }

  async findByKey(tenant: string, subject: string, key: string): Promise<OperationRecord | null> {
    const rows = await this.db.query<OperationRow>(FIND_BY_KEY, [tenant, subject, key]);
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  async findById(id: string): Promise<OperationRecord | null> {
    const rows = await this.db.query<OperationRow>('SELECT * FROM operations WHERE id = ?', [id]);
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  /**
   * The operation by id when it is the tenant's, and the subject's when one is named: the owner is in
   * the query, so another principal's row is never read (nor is its existence timed).
   */
  async findOwned(id: string, tenant: string, subject: string | null): Promise<OperationRecord | null> {
    const rows =
      subject === null
        ? await this.db.query<OperationRow>('SELECT * FROM operations WHERE id = ? AND tenant = ?', [
            id,
            tenant,
          ])
        : await this.db.query<OperationRow>(
            'SELECT * FROM operations WHERE id = ? AND tenant = ? AND subject = ?',
            [id, tenant, subject],
          );
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  /** The principal's own operations in id order (ids sort by creation time), after `afterId`; at most `limit`. */
  async listOwn(tenant: string, subject: string, afterId: string, limit: number): Promise<OperationRecord[]> {
    const rows = await this.db.query<OperationRow>(
      'SELECT * FROM operations WHERE tenant = ? AND subject = ? AND id > ? ORDER BY id LIMIT ?',
      [tenant, subject, afterId, limit],
    );
    return rows.map(recordFromRow);
  }

  /**
   * Stores the outcome of the delivery that executed. A record already settled by the reconciler or
   * an operator keeps that settlement; a late answer only replaces "in progress" or "unknown".
   */
  async settle(
    id: string,
    settlement: Settlement,
    alongside?: (tx: SqlExecutor) => Promise<void>,
  ): Promise<boolean> {
    // Alone, one statement is its own transaction; with work alongside, both commit together (on
    // PostgreSQL in one statement, the work's writes as CTEs: one round trip).
    if (alongside) {
      const params = settleParams(id, settlement);
      return (await this.db.writeTogether({ sql: SETTLE, params, row: `operations:${id}` }, alongside)) === 1;
    }
    return this.settleWithin(this.db, id, settlement);
  }

  /** `settle` as part of a transaction the caller holds, so that its own writes commit with it. */
  async settleWithin(
    tx: SqlExecutor,
    id: string,
    settlement: Settlement,
    alongside?: (tx: SqlExecutor) => Promise<void>,
  ): Promise<boolean> {
    const changed = await tx.execute(SETTLE, settleParams(id, settlement));
    if (alongside) await alongside(tx);
    return changed === 1;
  }

  /** A transaction of the database operation records live in. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /**
   * A delivery that stopped answering (crash, lost process) left the record in progress past its
   * lease: its outcome is now unknown, to be reconciled, never blindly executed again.
   */
  async abandon(id: string, envelope: OutcomeEnvelope, now: number, expiresAt: number): Promise<boolean> {
    const changed = await this.db.execute(
      `UPDATE operations SET status = 'outcome_unknown', envelope = ?, lease_expires_at = NULL,
        next_check_at = ?, updated_at = ?, expires_at = ?
        WHERE id = ? AND status = 'in_progress' AND lease_expires_at <= ?`,
      [JSON.stringify(envelope), now, now, expiresAt, id, now],
    );
    return changed === 1;
  }

  /** A `failed` record changed nothing; the next delivery of the same request executes it again. */
  async takeOver(
    id: string,
    correlationId: string,
    now: number,
    leaseExpiresAt: number,
  ): Promise<OperationRecord | null> {
    const rows = await this.db.query<OperationRow>(TAKE_OVER, [
      leaseExpiresAt,
      leaseExpiresAt,
      correlationId,
      now,
      id,
    ]);
    return rows[0] ? recordFromRow(rows[0]) : null;
  }

  async saveProgress(
    id: string,
    column: 'checkpoints' | 'external_refs',
    value: Record<string, unknown>,
    now: number,
  ): Promise<void> {
    const sql =
      column === 'checkpoints'
        ? "UPDATE operations SET checkpoints = ?, updated_at = ? WHERE id = ? AND status = 'in_progress'"
        : 'UPDATE operations SET external_refs = ?, updated_at = ? WHERE id = ?';
    await this.db.execute(sql, [JSON.stringify(value), now, id]);
  }

  /** Drops a settled record past its retention so its key can start afresh. */
  async deleteExpired(id: string, now: number): Promise<void> {
    await this.db.execute(
      `DELETE FROM operations WHERE id = ? AND expires_at <= ? AND ${SETTLED_FOR_GOOD_SQL}`,
      [id, now],
    );
  }

  /** Brings an unknown outcome's next reconciliation forward (a caller is asking about it now). */
  async checkSoon(id: string, now: number): Promise<void> {
    await this.db.execute(
      "UPDATE operations SET next_check_at = ? WHERE id = ? AND status = 'outcome_unknown' AND next_check_at > ?",
      [now, id, now],
    );
  }

  /**
   * The latest operation with the same content, by the same principal and tool, since `since`, that has
   * or may have taken effect (completed, submitted, running, unknown, in review): a new key for the same
   * content after a lost answer is exactly the duplicate to catch. The CASTs keep SQLite (STAT4) from
   * re-preparing this ordered statement on every call; `content_hash IS NOT NULL` (implied) lets it
   * still use the partial index on content.
   */
  async findSameContent(
    tenant: string,
    subject: string,
    tool: string,
    contentHash: string,
    key: string,
    since: number,
  ): Promise<OperationRecord | null> {
    const rows = await this.db.query<OperationRow>(
      `SELECT * FROM operations WHERE tenant = CAST(? AS TEXT) AND subject = CAST(? AS TEXT)
        AND tool = CAST(? AS TEXT) AND content_hash = CAST(? AS TEXT) AND content_hash IS NOT NULL AND idem_key <> ? AND status NOT IN ('rejected', 'failed', 'requires_confirmation') AND created_at >= ?
        ORDER BY created_at DESC LIMIT 1`,
      [tenant, subject, tool, contentHash, key, since],
    );
    return rows[0] ? recordFromRow(rows[0]) : null;
  }
}

function settleParams(id: string, s: Settlement): unknown[] {
  return [s.status, JSON.stringify(s.envelope), s.nextCheckAt, s.now, s.expiresAt, id];
}
