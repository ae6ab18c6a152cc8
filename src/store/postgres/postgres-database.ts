import pg from 'pg';
import type { SqlDatabase, SqlExecutor, SqlRow } from '../sql-database.ts';
import { isStoreUnavailable } from '../store-unavailable.ts';
import { PlaceholderTranslator } from './placeholders.ts';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './postgres-defaults.ts';

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
}

/** A transaction left open by a process that stopped is ended by the server, releasing its locks. */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

/**
 * PostgreSQL through a `pg` pool. Plain statements take any pooled connection; a transaction holds
 * one connection from BEGIN to COMMIT. Statements with parameters are prepared once per connection
 * under a stable name, so the hot path skips parsing and planning.
 */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #statements = new PlaceholderTranslator();

  private constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Connects and checks the server answers, so a wrong URL fails at start and not on the first call. */
  static async connect(url: string, options: PostgresOptions = {}): Promise<PostgresDatabase> {
    // A server that does not answer fails a new connection and a statement after the statement
    // timeout (5 s by default) instead of holding the call indefinitely.
    const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: statementTimeoutMs,
      statement_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + 1_000,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    });
    // An idle connection that breaks is dropped by the pool; the next checkout opens a new one.
    pool.on('error', () => undefined);
    const db = new PostgresDatabase(pool);
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      await pool.end();
      throw error;
    }
    return db;
  }

  query<T extends SqlRow = SqlRow>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.#rows<T>(this.#pool, sql, params);
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.#run(this.#pool, sql, params)).rowCount ?? 0;
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    const tx: SqlExecutor = {
      dialect: 'postgres',
      query: <R extends SqlRow>(sql: string, params: readonly unknown[] = []) =>
        this.#rows<R>(client, sql, params),
      execute: async (sql: string, params: readonly unknown[] = []) =>
        (await this.#run(client, sql, params)).rowCount ?? 0,
    };
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

  async close(): Promise<void> {
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
