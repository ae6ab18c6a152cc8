import type { SqlDatabase } from '../sql-database.ts';

/** Rows past which a table never analysed gets its first statistics (default 500). */
export const FIRST_STATISTICS_ROWS = 500;
/** How often the gateway looks for such tables (default 5 s): one catalog query. */
export const FIRST_STATISTICS_INTERVAL_MS = 5_000;

/**
 * The tables of the current schema that have never been analysed (neither by ANALYZE nor by
 * autovacuum) and hold at least `minRows` rows, by the server's own counts.
 */
const NEVER_ANALYZED = `SELECT relname FROM pg_stat_user_tables
  WHERE schemaname = current_schema() AND last_analyze IS NULL AND last_autoanalyze IS NULL
    AND n_live_tup >= ?
  ORDER BY relname`;

/**
 * Gives each of the gateway's PostgreSQL tables its first planner statistics once it holds some rows.
 *
 * Statements are prepared once per connection, and PostgreSQL settles on one generic plan for each after
 * a few executions. Planned while a table is new and has no statistics, the key lookup of a write or a
 * replay (`tenant = ? AND subject = ? AND idem_key = ?`) took the narrowest index that leads with the
 * tenant and filtered the rest: every lookup read all of the tenant's operations, and since nothing
 * invalidates a cached plan but new statistics or a schema change, it kept doing so as the table grew
 * (0.8 ms a lookup at 3,000 rows, a replay rate a fifth of its own on a fresh database). Autovacuum
 * analyses a table after its first changes, but only when it is on and within its own minute; this
 * analyses a table that still has no statistics as soon as it holds `minRows`, once: the new
 * statistics invalidate the cached plans, and the next ones take the unique key. From then on
 * autovacuum (or the operator) keeps them, as for any table.
 *
 * A database that refuses ANALYZE (a role that does not own the tables) is left as it is, with one
 * warning; the lookups then wait for autovacuum. Any other failure is the background loop's to log, and
 * the next check tries again.
 */
export class FirstStatistics {
  readonly #db: SqlDatabase;
  readonly #minRows: number;
  readonly #warn: (message: string, error: unknown) => void;
  #refused = false;

  constructor(
    db: SqlDatabase,
    warn: (message: string, error: unknown) => void,
    minRows = FIRST_STATISTICS_ROWS,
  ) {
    this.#db = db;
    this.#warn = warn;
    this.#minRows = minRows;
  }

  /** Analyses each table that needs its first statistics now; answers their names. */
  async check(): Promise<string[]> {
    if (this.#refused) return [];
    const rows = await this.#db.query<{ relname: string }>(NEVER_ANALYZED, [this.#minRows]);
    const analysed: string[] = [];
    for (const { relname } of rows) {
      try {
        await this.#db.execute(`ANALYZE ${quoteIdentifier(relname)}`);
        analysed.push(relname);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        this.#refused = true;
        this.#warn(`could not analyse ${relname}; its first statistics are left to autovacuum`, error);
        break;
      }
    }
    return analysed;
  }
}

/** `insufficient_privilege`: the role may not analyse the table, and will not be allowed later either. */
function isRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '42501';
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
