import { SentTogether } from '../store/sent-together.ts';
import type { SqlDatabase } from '../store/sql-database.ts';
import { type OperationRow, recordFromRow } from './operation-record.ts';
import type { Reservation, ReservationRequest } from './operation-store.ts';

/** The columns a reservation sets from its request, in the order of `reservationParams`, with their types. */
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

/** A reservation's values, in the order of its INSERT's placeholders (and of `COLUMNS`). */
export function reservationParams(r: ReservationRequest): unknown[] {
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

/** The INSERT of a new record in progress, before its values: every column, as both statements below fill them. */
const INSERT_RESERVATION = `INSERT INTO operations (id, tenant, subject, idem_key, tool, contract_version, fingerprint,
  content_hash, mode, status, envelope, attempts, lease_expires_at, next_check_at, reconcile_attempts,
  reconcile_note, checkpoints, external_refs, correlation_id, created_at, updated_at, expires_at, request_summary)`;

/** One reservation: the record, in progress, unless the key is taken (then no row is returned). */
export const RESERVE = `${INSERT_RESERVATION}
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'in_progress', NULL, 1, ?, ?, 0, NULL, '{}', '{}', ?, ?, ?, ?, ?)
  ON CONFLICT (tenant, subject, idem_key) DO NOTHING RETURNING id`;

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
  ${INSERT_RESERVATION}
  SELECT id, tenant, subject, idem_key, tool, contract_version, fingerprint, content_hash, mode,
    'in_progress', NULL, 1, lease_expires_at, next_check_at, 0, NULL, '{}', '{}', correlation_id, created_at,
    updated_at, expires_at, request_summary FROM v
  ON CONFLICT (tenant, subject, idem_key) DO NOTHING RETURNING id
)
SELECT v.id AS request_id, ins.id AS reserved_id, o.* FROM v LEFT JOIN ins ON ins.id = v.id
  LEFT JOIN LATERAL (SELECT * FROM operations x WHERE x.tenant = v.tenant AND x.subject = v.subject
    AND x.idem_key = v.idem_key LIMIT 1) o ON ins.id IS NULL`;

/** How one reservation goes alone: the single statement. */
export type ReserveAlone = (r: ReservationRequest) => Promise<Reservation>;

/**
 * Reservations on PostgreSQL, sent together (store/sent-together.ts): those that arrive while one is out
 * go as the next statement, one round trip and one commit for all. Every request still decides its own
 * key: the statement's INSERT takes each key that is free, and reports the record for each that is not.
 */
export class ReservationBatch {
  readonly #sent: SentTogether<ReservationRequest, Reservation>;

  constructor(db: SqlDatabase, alone: ReserveAlone) {
    this.#sent = new SentTogether({
      key: (r) => JSON.stringify([r.tenant, r.subject, r.key]),
      alone,
      together: (requests) => reserveMany(db, requests),
    });
  }

  reserveOrFind(request: ReservationRequest): Promise<Reservation> {
    return this.#sent.run(request);
  }
}

async function reserveMany(db: SqlDatabase, requests: readonly ReservationRequest[]): Promise<Reservation[]> {
  const values = requests.map(reservationParams);
  const rows = await db.query<OperationRow & { request_id: string; reserved_id: string | null }>(
    RESERVE_MANY,
    COLUMNS.map((_, column) => values.map((v) => v[column])),
  );
  const byRequest = new Map(rows.map((row) => [row.request_id, row]));
  return requests.map((r): Reservation => {
    const row = byRequest.get(r.id);
    if (row?.reserved_id) return { reserved: true };
    return { reserved: false, existing: row?.id ? recordFromRow(row) : null };
  });
}
