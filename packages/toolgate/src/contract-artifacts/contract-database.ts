import type { Migration, SqlDatabase, SqlExecutor, SqlRow, SqlWrite } from '../store/sql-database.ts';
import { SqliteCapabilities } from '../store/sqlite/sqlite-capabilities.ts';

/**
 * The database modules get while the contract is built: SQLite in memory with the migrations `serve`
 * applies, opened on the first statement. Modules that only wire their tools in `create()` (the
 * reference domains) never open it, so lint and export skip the driver and the migrations; a module
 * that reads its tables while creating its tools gets them migrated, as under `serve`.
 */
export class ContractDatabase extends SqliteCapabilities implements SqlDatabase {
  readonly #migrations: readonly Migration[];
  #opened: Promise<SqlDatabase> | null = null;

  constructor(migrations: readonly Migration[]) {
    super();
    this.#migrations = migrations;
  }

  /** Whether a module used the database (it is then open until `close`). */
  get opened(): boolean {
    return this.#opened !== null;
  }

  query<T extends SqlRow = SqlRow>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.#open().then((db) => db.query<T>(sql, params));
  }

  execute(sql: string, params?: readonly unknown[]): Promise<number> {
    return this.#open().then((db) => db.execute(sql, params));
  }

  lockRows(select: string, params?: readonly unknown[]): Promise<void> {
    return this.#open().then((db) => db.lockRows(select, params));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#open().then((db) => db.transaction(work));
  }

  writeTogether(lead: SqlWrite, work: (tx: SqlExecutor) => Promise<void>): Promise<number> {
    return this.#open().then((db) => db.writeTogether(lead, work));
  }

  async close(): Promise<void> {
    if (this.#opened) await (await this.#opened).close();
  }

  #open(): Promise<SqlDatabase> {
    this.#opened ??= (async () => {
      const { SqliteDatabase } = await import('../store/sqlite/sqlite-database.ts');
      const { runMigrations } = await import('../store/migrations.ts');
      const db = new SqliteDatabase(':memory:');
      try {
        await runMigrations(db, this.#migrations);
        return db;
      } catch (error) {
        await db.close();
        throw error;
      }
    })();
    return this.#opened;
  }
}
