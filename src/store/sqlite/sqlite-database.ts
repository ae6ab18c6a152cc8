import Database from 'better-sqlite3';
import type { SqlDatabase, SqlExecutor, SqlRow } from '../sql-database.ts';

/**
 * SQLite through better-sqlite3 (WAL). Statements are synchronous and prepared once; async
 * transactions hold a queue so no other statement interleaves between BEGIN and COMMIT.
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /** Tail of the transaction queue; plain statements wait behind an open transaction. */
  #queue: Promise<unknown> = Promise.resolve();
  #inTransaction = false;

  constructor(file: string) {
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.pragma('foreign_keys = ON');
  }

  async query<T extends SqlRow = SqlRow>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.#inTransaction) await this.#queue;
    return this.#all<T>(sql, params);
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    if (this.#inTransaction) await this.#queue;
    return this.#run(sql, params);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      this.#inTransaction = true;
      this.#db.exec('BEGIN IMMEDIATE');
      const tx: SqlExecutor = {
        dialect: 'sqlite',
        query: async <R extends SqlRow>(sql: string, params: readonly unknown[] = []) =>
          this.#all<R>(sql, params),
        execute: async (sql: string, params: readonly unknown[] = []) => this.#run(sql, params),
      };
      try {
        const result = await work(tx);
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw error;
      } finally {
        this.#inTransaction = false;
      }
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.#queue;
    this.#db.close();
  }

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #all<T>(sql: string, params: readonly unknown[]): T[] {
    const statement = this.#prepare(sql);
    const bound = params.map(toSqlite);
    if (statement.reader) return statement.all(...bound) as T[];
    statement.run(...bound);
    return [];
  }

  #run(sql: string, params: readonly unknown[]): number {
    const statement = this.#prepare(sql);
    const bound = params.map(toSqlite);
    if (statement.reader) {
      statement.all(...bound);
      return 0;
    }
    return statement.run(...bound).changes;
  }
}

function toSqlite(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  if (value === undefined) return null;
  return value;
}
