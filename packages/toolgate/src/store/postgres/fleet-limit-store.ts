import type { FleetLease, FleetLeases } from '../../gateway/fleet-buckets.ts';
import type { FleetWriteClaims } from '../../gateway/fleet-write-slots.ts';
import type { SqlDatabase } from '../sql-database.ts';

/** The database's clock in epoch milliseconds: one clock for every gateway, whatever their hosts' say. */
const NOW_MS = '(EXTRACT(EPOCH FROM now())::float8 * 1000)';
/** The bucket refilled at its rate ($4/s) up to its burst ($2) for the time since it was last refilled. */
const REFILLED = `LEAST($2::float8, b.tokens + GREATEST(0, ${NOW_MS} - b.refilled_at) * $4::float8 / 1000)`;
/** What a lease of $3 tokens is granted: all of them, or what the refilled bucket holds. */
const GRANT = `LEAST($3::float8, GREATEST(0, ${REFILLED}))`;

/**
 * One statement per lease: the principal's bucket is refilled, the grant taken from it, and the row
 * locked for that one statement, so concurrent leases of every gateway are granted one after another.
 * A bucket not seen before starts full.
 */
const LEASE_SQL = `INSERT INTO fleet_limit_buckets AS b (bucket, tokens, refilled_at, granted)
VALUES ($1, $2::float8 - LEAST($3::float8, $2::float8), ${NOW_MS}, LEAST($3::float8, $2::float8))
ON CONFLICT (bucket) DO UPDATE SET
  granted = ${GRANT},
  tokens = ${REFILLED} - ${GRANT},
  refilled_at = GREATEST(b.refilled_at, ${NOW_MS})
RETURNING granted, tokens`;

/**
 * Sets this gateway's claim for the principal to $3 slots, only if the live claims of the others and
 * it stay within the cap ($4); run under the principal's advisory lock, so claims are decided one at
 * a time and each sees the ones before it.
 */
const CLAIM_SQL = `INSERT INTO fleet_write_claims (principal, gateway, held, expires_at)
SELECT $1, $2, $3::int, (${NOW_MS})::bigint + $5::bigint
WHERE (SELECT COALESCE(SUM(held), 0) FROM fleet_write_claims
       WHERE principal = $1 AND gateway <> $2 AND expires_at > ${NOW_MS}) + $3::int <= $4::int
ON CONFLICT (principal, gateway) DO UPDATE SET held = EXCLUDED.held, expires_at = EXCLUDED.expires_at
RETURNING held`;

/**
 * A bucket or principal as stored: its JSON string, so any tenant or subject (a NUL, which PostgreSQL
 * text cannot hold, included) is one plain text key.
 */
const stored = (key: string): string => JSON.stringify(key);

/** Rows no one has touched for this long are gone: a bucket idle that long is full again anyway. */
const FORGET_AFTER_MS = 60_000;

/**
 * The fleet limiter's shared state on PostgreSQL (fleet-limits-migration.ts): token leases from one
 * row per principal and limit, and write slots claimed per gateway with an expiry.
 */
export class PostgresFleetLimitStore implements FleetLeases, FleetWriteClaims {
  readonly #db: SqlDatabase;

  constructor(db: SqlDatabase) {
    this.#db = db;
  }

  async lease(bucket: string, burst: number, rate: number, want: number): Promise<FleetLease> {
    const [row] = await this.#db.query<{ granted: number; tokens: number }>(LEASE_SQL, [
      stored(bucket),
      burst,
      want,
      rate,
    ]);
    return { granted: row?.granted ?? 0, left: row?.tokens ?? 0 };
  }

  claim(principal: string, gateway: string, held: number, cap: number, ttlMs: number): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(7340178, hashtext($1))', [stored(principal)]);
      return (await tx.query(CLAIM_SQL, [stored(principal), gateway, held, cap, ttlMs])).length === 1;
    });
  }

  async lower(principal: string, gateway: string, held: number, ttlMs: number): Promise<void> {
    if (held === 0) {
      await this.#db.execute('DELETE FROM fleet_write_claims WHERE principal = $1 AND gateway = $2', [
        stored(principal),
        gateway,
      ]);
      return;
    }
    await this.#db.execute(
      `UPDATE fleet_write_claims SET held = $3::int, expires_at = (${NOW_MS})::bigint + $4::bigint
       WHERE principal = $1 AND gateway = $2 AND held > $3::int`,
      [stored(principal), gateway, held, ttlMs],
    );
  }

  async renew(gateway: string, ttlMs: number): Promise<void> {
    await this.#db.execute(
      `UPDATE fleet_write_claims SET expires_at = (${NOW_MS})::bigint + $2::bigint WHERE gateway = $1`,
      [gateway, ttlMs],
    );
    await this.#db.execute(`DELETE FROM fleet_write_claims WHERE expires_at < ${NOW_MS} - $1::float8`, [
      FORGET_AFTER_MS,
    ]);
    await this.#db.execute(`DELETE FROM fleet_limit_buckets WHERE refilled_at < ${NOW_MS} - $1::float8`, [
      FORGET_AFTER_MS,
    ]);
  }
}
