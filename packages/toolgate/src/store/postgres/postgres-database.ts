import pg from 'pg';
import type { SqlDatabase, SqlExecutor, SqlRow, SqlWrite, StoreUpkeep } from '../sql-database.ts';
import { isStoreUnavailable } from '../store-unavailable.ts';
import { SharedStatements, writeInOneStatement } from './deferred-writes.ts';
import { FIRST_STATISTICS_INTERVAL_MS, FirstStatistics } from './first-statistics.ts';
import { PlaceholderTranslator } from './placeholders.ts';
import { PostgresCapabilities } from './postgres-capabilities.ts';
import { DEFAULT_READ_LANES, DEFAULT_STATEMENT_TIMEOUT_MS } from './postgres-defaults.ts';
import { READ_LANE_APPLICATION_NAME, ReadLanes } from './read-lanes.ts';

// BIGINT columns hold epoch milliseconds and counters, all well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface PostgresOptions {
  /** Most connections this process holds (default 10). */
  readonly maxConnections?: number;
  /**
   * The longest one statement may run (default 5 000 ms): PostgreSQL cancels it past this
   * (`statement_timeout`), and the client gives up 1 s later when the server does not even answer.
   */
  readonly statementTimeoutMs?: number;
  /**
   * Pipelined connections for single plain SELECTs outside transactions, on top of the pool (default 1;
   * 0: the pool serves every statement). See read-lanes.ts.
   */
  readonly readLanes?: number;
}

/** A transaction left open by a process that stopped is ended by the server, releasing its locks. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

/**
 * PostgreSQL through a `pg` pool. Plain statements take any pooled connection; a transaction holds
 * one connection from BEGIN to COMMIT. Single plain SELECTs outside transactions go to a pipelined
 * read lane when one can take them (read-lanes.ts), else to the pool. Statements with parameters are
 * prepared once per connection under a stable name, so the hot path skips parsing and planning.
 */
export class PostgresDatabase extends PostgresCapabilities implements SqlDatabase {
  readonly #pool: pg.Pool;
  readonly #statements = new PlaceholderTranslator();
  readonly #lanes: ReadLanes | null;
  readonly #shared = new SharedStatements(this);

  private constructor(pool: pg.Pool, lanes: ReadLanes | null) {
    super();
    this.#pool = pool;
    this.#lanes = lanes;
  }

  /** Connects and checks the server answers, so a wrong URL fails at start and not on the first call. */
  static async connect(url: string, options: PostgresOptions = {}): Promise<PostgresDatabase> {
    // A server that does not answer fails a new connection and a statement after the statement
    // timeout (5 s by default) instead of holding the call indefinitely.
    const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const connection = {
      connectionString: url,
      connectionTimeoutMillis: statementTimeoutMs,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + 1_000,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    };
    const pool = new pg.Pool({ ...connection, max: options.maxConnections ?? 10 });
    // An idle connection that breaks is dropped by the pool; the next checkout opens a new one.
    pool.on('error', () => undefined);
    const laneCount = options.readLanes ?? DEFAULT_READ_LANES;
    // A URL that names an application_name names it for the lanes too.
    const lanes =
      laneCount > 0
        ? new ReadLanes({ ...connection, application_name: READ_LANE_APPLICATION_NAME }, { lanes: laneCount })
        : null;
    const db = new PostgresDatabase(pool, lanes);
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      await pool.end();
      throw error;
    }
    await lanes?.open();
    return db;
  }

  query<T extends SqlRow = SqlRow>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.#lanes !== null && params.length > 0) {
      const statement = this.#statements.translate(sql);
      if (statement.plainRead) {
        const onLane = this.#lanes.query({
          name: statement.name,
          text: statement.text,
          values: params.map(toPostgres),
        });
        if (onLane !== null) return onLane.then((result) => result.rows as T[]);
      }
    }
    return this.#rows<T>(this.#pool, sql, params);
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.#run(this.#pool, sql, params)).rowCount ?? 0;
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    const tx: SqlExecutor = Object.assign(new PostgresCapabilities(), {
      query: <R extends SqlRow>(sql: string, params: readonly unknown[] = []) =>
        this.#rows<R>(client, sql, params),
      execute: async (sql: string, params: readonly unknown[] = []) =>
        (await this.#run(client, sql, params)).rowCount ?? 0,
      lockRows: async (select: string, params: readonly unknown[] = []) => {
        await this.#run(client, `${select} FOR UPDATE`, params);
      },
    });
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isStoreUnavailable(error)) {
        // The server is not answering: a ROLLBACK would wait out another timeout. Dropping the
        // connection ends the transaction on the server just the same.
        broken = error instanceof Error ? error : new Error(String(error));
        throw error;
      }
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw error;
    } finally {
      // A connection whose ROLLBACK failed is in an unknown state; the pool must not reuse it.
      client.release(broken);
    }
  }

  /** Outside a transaction a lock ends with its statement: this only waits for the rows' holders. */
  async lockRows(select: string, params: readonly unknown[] = []): Promise<void> {
    await this.#run(this.#pool, `${select} FOR UPDATE`, params);
  }

  /**
   * One statement, the writes of `work` as data-modifying CTEs (deferred-writes.ts); groups of several
   * callers that arrive while one is out share the next statement when they may.
   */
  writeTogether(lead: SqlWrite, work: (tx: SqlExecutor) => Promise<void>): Promise<number> {
    return writeInOneStatement(this, lead, work, this.#shared);
  }

  /** Gives tables that never had planner statistics their first, once they hold rows (first-statistics.ts). */
  upkeep(warn: (message: string, error: unknown) => void): readonly StoreUpkeep[] {
    const statistics = new FirstStatistics(this, warn);
    return [
      { name: 'first statistics', intervalMs: FIRST_STATISTICS_INTERVAL_MS, run: () => statistics.check() },
    ];
  }

  async close(): Promise<void> {
    await this.#lanes?.close();
    await this.#pool.end();
  }

  async #rows<T>(runner: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[]): Promise<T[]> {
    return (await this.#run(runner, sql, params)).rows as T[];
  }

  #run(runner: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    if (params.length === 0) return runner.query(sql);
    const { text, name } = this.#statements.translate(sql);
    return runner.query({ name, text, values: params.map(toPostgres) });
  }
}

/** Booleans are INTEGER 0/1 and timestamps epoch milliseconds on both stores. */
function toPostgres(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  if (value === undefined) return null;
  return value;
}
