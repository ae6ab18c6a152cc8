import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlDatabase } from './sql-database.ts';
import { SqliteDatabase } from './sqlite/sqlite-database.ts';

export interface DatabaseConfig {
  /** Directory for the embedded SQLite file (and dev keys). */
  readonly dataDir: string;
  /** postgres://... selects PostgreSQL instead of SQLite. */
  readonly databaseUrl?: string;
  /** PostgreSQL: the longest one statement may run before it fails as unavailable (default 5 000 ms). */
  readonly statementTimeoutMs?: number;
  /** PostgreSQL: pipelined connections for plain reads outside transactions (default 1; 0: none). */
  readonly readLanes?: number;
}

/** SQLite in the data dir by default; PostgreSQL when a database URL is given. */
export async function openDatabase(config: DatabaseConfig): Promise<SqlDatabase> {
  if (config.databaseUrl) {
    const { PostgresDatabase } = await import('./postgres/postgres-database.ts');
    return PostgresDatabase.connect(config.databaseUrl, {
      statementTimeoutMs: config.statementTimeoutMs,
      readLanes: config.readLanes,
    });
  }
  createPrivateDir(config.dataDir);
  const file = join(config.dataDir, 'toolgate.db');
  // SQLite gives its -wal and -shm files the database file's mode, so 0600 here covers all three.
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  return new SqliteDatabase(file);
}

/**
 * Creates the data dir readable by its owner only (it holds customer data and the dev signing key).
 * A directory that already exists keeps its mode: it may be shared on purpose.
 */
export function createPrivateDir(dir: string): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) chmodSync(dir, 0o700);
}
