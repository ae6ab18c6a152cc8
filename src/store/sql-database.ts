/**
 * The narrow SQL surface every store and domain repository is written against, so that one
 * piece of SQL runs on SQLite and PostgreSQL alike.
 *
 * Conventions that keep the SQL portable:
 * - placeholders are `?` (PostgreSQL gets them renumbered to `$n`);
 * - timestamps are epoch milliseconds in BIGINT/INTEGER columns, returned as numbers;
 * - booleans are INTEGER 0/1; JSON is TEXT;
 * - `INSERT ... ON CONFLICT DO NOTHING RETURNING` is the atomic reservation primitive.
 */
export type SqlDialect = 'sqlite' | 'postgres';

export type SqlRow = Record<string, unknown>;

export interface SqlExecutor {
  readonly dialect: SqlDialect;
  /** Runs a statement and returns its rows (empty for statements without RETURNING). */
  query<T extends SqlRow = SqlRow>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement and returns how many rows it changed. */
  execute(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface SqlDatabase extends SqlExecutor {
  /**
   * Runs `work` in one transaction; commits when it resolves, rolls back when it throws.
   * On SQLite transactions are serialized; on PostgreSQL each takes a pooled connection.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A versioned schema change. Ids sort in apply order; a domain prefixes its own. */
export interface Migration {
  readonly id: string;
  /** One SQL script for both dialects, or one per dialect. */
  readonly sql: string | { readonly sqlite: string; readonly postgres: string };
}
