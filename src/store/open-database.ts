import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlDatabase } from './sql-database.ts';
import { SqliteDatabase } from './sqlite/sqlite-database.ts';

export interface DatabaseConfig {
  /** Directory for the embedded SQLite file (and dev keys). */
  readonly dataDir: string;
  /** postgres://... selects PostgreSQL instead of SQLite. */
  readonly databaseUrl?: string;
}

/** SQLite in the data dir by default; PostgreSQL when a database URL is given. */
export async function openDatabase(config: DatabaseConfig): Promise<SqlDatabase> {
  if (config.databaseUrl) {
    const { PostgresDatabase } = await import('./postgres/postgres-database.ts');
    return PostgresDatabase.connect(config.databaseUrl);
  }
  mkdirSync(config.dataDir, { recursive: true });
  return new SqliteDatabase(join(config.dataDir, 'toolgate.db'));
}
