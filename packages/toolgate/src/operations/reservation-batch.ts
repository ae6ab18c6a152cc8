import type { SqlDatabase } from '../store/sql-database.ts';
import { isStoreUnavailable } from '../store/store-unavailable.ts';
import { type OperationRow, recordFromRow } from './operation-record.ts';
import type { Reservation, ReservationRequest } from './operation-store.ts';

/** The columns a reservation sets from its request, in the order of `reservationColumns`, with their types. */
const COLUMNS = [
  ['id', 'text'],
  ['tenant', 'text'],
  ['subject', 'text'],
  ['idem_key', 'text'],
  ['tool', 'text'],
  ['contract_version', 'text'],
  ['fingerprint', 'text'],
  ['content_hash', 'text'],
  ['mode', 'text'],
  ['lease_expires_at', 'bigint'],
  ['next_check_at', 'bigint'],
  ['correlation_id', 'text'],
  ['created_at', 'bigint'],
  ['updated_at', 'bigint'],
  ['expires_at', 'bigint'],
  ['request_summary', 'text'],
] as const;

function reservationColumns(r: ReservationRequest): unknown[] {
  return [
    r.id,
    r.tenant,
    r.subject,
    r.key,
    r.tool,
    r.contractVersion,
    r.fingerprint,
    r.contentHash,
    r.mode,
    r.leaseExpiresAt,
    r.leaseExpiresAt,
    r.correlationId,
    r.now,
    r.now,
    r.expiresAt,
    r.requestSummary ?? null,
  ];
}

const NAMES = COLUMNS.map(([name]) => name).join(', ');

/**
 * Several reservations in one statement: the requests as arrays, unnested; the INSERT of each that finds
 * its key free; and for each that did not, the record holding the key as the statement's snapshot has
 * it. A key held by a record committed while the INSERT waited is not in that snapshot: then
 * `reserved_id` and `id` are both null and the caller looks again, as with one reservation alone. Two
 * requests of one batch never share a key (the batch leaves the second for the next statement).
 * The record is looked up per request, by the key's unique index: joined as a set (the planner also
 * flattens a plain LATERAL subquery into a join), a table it has no statistics for yet, as in a new
 * database, was read whole for every batch; the LIMIT keeps the lookup a subquery of its own.
 */
export const RESERVE_MANY = `WITH v AS (
  SELECT * FROM unnest(${COLUMNS.map(([, type]) => `?::${type}[]`).join(', ')}) AS v(${NAMES})
), ins AS (
  INSERT INTO operations (id, tenant, subject, idem_key, tool, contract_version, fingerprint,
    content_hash, mode, status, envelope, attempts, lease_expires_at, next_check_at, reconcile_attempts,
    reconcile_note, checkpoints, external_refs, correlation_id, created_at, updated_at, expires_at, request_summary)
  SELECT id, tenant, subject, idem_key, tool, contract_version, fingerprint, content_hash, mode,
    'in_progress', NULL, 1, lease_expires_at, next_check_at, 0, NULL, '{}', '{}', correlation_id, created_at,
    updated_at, expires_at, request_summary FROM v
  ON CONFLICT (tenant, subject, idem_key) DO NOTHING RETURNING id
)
SELECT v.id AS request_id, ins.id AS reserved_id, o.* FROM v LEFT JOIN ins ON ins.id = v.id
  LEFT JOIN LATERAL (SELECT * FROM operations x WHERE x.tenant = v.tenant AND x.subject = v.subject
    AND x.idem_key = v.idem_key LIMIT 1) o ON ins.id IS NULL`;

interface Waiting {
  readonly request: ReservationRequest;
  resolve(reservation: Reservation): void;
  reject(error: unknown): void;
}

/** How one reservation goes alone: the single statement, for a request that cannot wait for a batch. */
export type ReserveAlone = (r: ReservationRequest) => Promise<Reservation>;

/**
 * Reservations on PostgreSQL, sent together. A reservation is its own transaction, and on a small
 * machine each costs the gateway a write that wakes a backend and the backend a commit: under load that,
 * not the work of the INSERT, sets the write rate. So one reservation goes out at once when none is out;
 * those that arrive while one is out wait for it and go together as the next statement, one round trip
 * and one commit for all. Every request still decides its own key: the batch's INSERT takes each key that
 * is free, and reports the record for each that is not.
 *
 * A batch that fails for a reason other than an unreachable database is tried again one request at a
 * time, so one request the database refuses (a value it cannot store) fails alone and the others go on.
 */
export class ReservationBatch {
  #waiting: Waiting[] = [];
  #out = false;

  constructor(
    private readonly db: SqlDatabase,
    private readonly alone: ReserveAlone,
  ) {}

  reserveOrFind(request: ReservationRequest): Promise<Reservation> {
    return new Promise<Reservation>((resolve, reject) => {
      this.#waiting.push({ request, resolve, reject });
      if (!this.#out) this.#send();
    });
  }

  #send(): void {
    const batch = takeDistinctKeys(this.#waiting);
    this.#waiting = this.#waiting.filter((w) => !batch.includes(w));
    if (batch.length === 0) return;
    this.#out = true;
    const done = () => {
      this.#out = false;
      if (this.#waiting.length > 0) this.#send();
    };
    const run = batch.length === 1 ? this.#one(batch[0]!) : this.#many(batch);
    run.then(done, done);
  }

  async #one(w: Waiting): Promise<void> {
    try {
      w.resolve(await this.alone(w.request));
    } catch (error) {
      w.reject(error);
    }
  }

  async #many(batch: readonly Waiting[]): Promise<void> {
    let rows: (OperationRow & { request_id: string; reserved_id: string | null })[];
    try {
      const params = COLUMNS.map((_, column) => batch.map((w) => reservationColumns(w.request)[column]));
      rows = await this.db.query(RESERVE_MANY, params);
    } catch (error) {
      if (isStoreUnavailable(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      // Something in one request: each alone, so only that one fails.
      await Promise.all(batch.map((w) => this.#one(w)));
      return;
    }
    const byRequest = new Map(rows.map((row) => [row.request_id, row]));
    for (const w of batch) {
      const row = byRequest.get(w.request.id);
      if (row?.reserved_id) w.resolve({ reserved: true });
      else w.resolve({ reserved: false, existing: row?.id ? recordFromRow(row) : null });
    }
  }
}

/** The waiting requests in arrival order, but a second request for a key already taken waits for the next batch. */
function takeDistinctKeys(waiting: readonly Waiting[]): Waiting[] {
  const keys = new Set<string>();
  const batch: Waiting[] = [];
  for (const w of waiting) {
    const key = JSON.stringify([w.request.tenant, w.request.subject, w.request.key]);
    if (keys.has(key)) continue;
    keys.add(key);
    batch.push(w);
  }
  return batch;
}
