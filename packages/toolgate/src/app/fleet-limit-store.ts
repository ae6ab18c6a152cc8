import type { FleetLease, FleetLeases } from '../gateway/fleet-buckets.ts';
import type { FleetWriteClaims } from '../gateway/fleet-write-slots.ts';
import type { SqlDatabase } from '../store/sql-database.ts';

/** The database's clock in epoch milliseconds: one clock for every gateway, whatever their hosts' say. */
const NOW_MS = '(EXTRACT(EPOCH FROM now())::float8 * 1000)';
/** The bucket refilled at its rate (per second) up to its burst for the time since it was last refilled. */
const REFILLED = `LEAST(l.burst, b.tokens + GREATEST(0, ${NOW_MS} - b.refilled_at) * l.rate / 1000)`;
/** What a lease is granted: all it wants, or what the refilled bucket holds. */
const GRANT = `LEAST(l.want, GREATEST(0, ${REFILLED}))`;

/**
 * One statement per batch of leases (of distinct buckets): each bucket is refilled, its grant taken
 * from it, and its row locked for that one statement, so concurrent leases of every gateway are
 * granted one after another, each from what the one before left.
 */
const LEASE_SQL = `UPDATE fleet_limit_buckets AS b SET
  granted = ${GRANT},
  tokens = ${REFILLED} - ${GRANT},
  refilled_at = GREATEST(b.refilled_at, ${NOW_MS})
FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[]) AS l(bucket, burst, want, rate)
WHERE b.bucket = l.bucket
RETURNING b.bucket, b.granted, b.tokens`;

/** Buckets not seen before (or forgotten after a long idle) start full. */
const CREATE_SQL = `INSERT INTO fleet_limit_buckets (bucket, tokens, refilled_at, granted)
SELECT l.bucket, l.burst, ${NOW_MS}, 0 FROM unnest($1::text[], $2::float8[]) AS l(bucket, burst)
ON CONFLICT (bucket) DO NOTHING`;

/** The most leases one statement carries. */
const MAX_BATCH = 500;
/**
 * How long the first lease waits for others to go with it. The bucket's credit (a twentieth of a
 * second's worth) covers the calls meanwhile, so gathering costs no accuracy, and many principals'
 * leases share round trips.
 */
const GATHER_MS = 10;

interface PendingLease {
  readonly bucket: string;
  readonly burst: number;
  readonly rate: number;
  readonly want: number;
  resolve(lease: FleetLease): void;
  reject(error: unknown): void;
}

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
  #pending: PendingLease[] = [];
  #leasing = false;

  constructor(db: SqlDatabase) {
    this.#db = db;
  }

  /**
   * Leases go out in batches: the ones asked for within a few milliseconds, or while a batch is
   * on its way, go together in one statement, so many principals' leases cost few round trips.
   */
  lease(bucket: string, burst: number, rate: number, want: number): Promise<FleetLease> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ bucket: stored(bucket), burst, rate, want, resolve, reject });
      if (this.#leasing) return;
      this.#leasing = true;
      setTimeout(() => void this.#sendLeases(), GATHER_MS);
    });
  }

  async #sendLeases(): Promise<void> {
    while (this.#pending.length > 0) {
      // One lease per bucket in a statement (an UPDATE changes a row once); a second waits its turn.
      const batch = new Map<string, PendingLease>();
      const later: PendingLease[] = [];
      for (const lease of this.#pending) {
        if (batch.size < MAX_BATCH && !batch.has(lease.bucket)) batch.set(lease.bucket, lease);
        else later.push(lease);
      }
      this.#pending = later;
      try {
        const granted = await this.#leaseAll([...batch.values()]);
        for (const [bucket, lease] of batch) lease.resolve(granted.get(bucket) ?? { granted: 0, left: 0 });
      } catch (error) {
        for (const lease of batch.values()) lease.reject(error);
      }
    }
    this.#leasing = false;
  }

  async #leaseAll(leases: readonly PendingLease[]): Promise<Map<string, FleetLease>> {
    const update = async (of: readonly PendingLease[]) => {
      const rows = await this.#db.query<{ bucket: string; granted: number; tokens: number }>(LEASE_SQL, [
        of.map((l) => l.bucket),
        of.map((l) => l.burst),
        of.map((l) => l.want),
        of.map((l) => l.rate),
      ]);
      for (const row of rows) granted.set(row.bucket, { granted: row.granted, left: row.tokens });
    };
    const granted = new Map<string, FleetLease>();
    await update(leases);
    const missing = leases.filter((l) => !granted.has(l.bucket));
    if (missing.length > 0) {
      await this.#db.execute(CREATE_SQL, [missing.map((l) => l.bucket), missing.map((l) => l.burst)]);
      await update(missing);
    }
    return granted;
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
