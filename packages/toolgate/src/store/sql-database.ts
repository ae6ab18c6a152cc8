/**
 * The narrow SQL surface every store and domain repository is written against, so that one
 * piece of SQL runs on SQLite and PostgreSQL alike.
 *
 * Conventions that keep the SQL portable:
 * - placeholders are `?` (PostgreSQL gets them renumbered to `$n`);
 * - timestamps are epoch milliseconds in BIGINT/INTEGER columns, returned as numbers;
 * - booleans are INTEGER 0/1; JSON is TEXT;
 * - `INSERT ... ON CONFLICT DO NOTHING RETURNING` is the atomic reservation primitive;
 * - where the databases differ, the executor answers a capability (`SqlCapabilities`, `lockRows`,
 *   `writeTogether`): only the store knows which database it is.
 */
export type SqlDialect = 'sqlite' | 'postgres';

export type SqlRow = Record<string, unknown>;

/** How a SELECT locks the rows it reads, until its transaction ends. */
export type RowLock =
  /** Others wait to lock or change the rows. */
  | 'update'
  /** The rows no one else holds are locked; rows others hold are skipped (work queues). */
  | 'update_skip_locked'
  /** Others may read-lock the rows too; writers wait. */
  | 'share';

/**
 * What differs between the databases, asked of the database object (as kysely's adapters answer
 * `supportsReturning`): code above the store names what it needs, never which database it runs on.
 */
export interface SqlCapabilities {
  /** Which database this is: the store's own business (per-dialect migration scripts). */
  readonly dialect: SqlDialect;
  /**
   * A WITH clause may hold INSERT, UPDATE and DELETE (PostgreSQL's data-modifying statements in WITH),
   * so a write and a read of what it decided go in one statement.
   */
  readonly supportsDataModifyingCtes: boolean;
  /**
   * Single writes issued outside a transaction in one event-loop turn commit together by themselves
   * (SQLite's group commit). Where not, a writer of many small rows batches them itself.
   */
  readonly groupsCommits: boolean;
  /**
   * Every write waits for the one before it to finish (SQLite: one writer, its statements run on the
   * event loop), so a long statement delays every write that arrives during it. Where not (PostgreSQL),
   * writes of different rows run side by side.
   */
  readonly writesOneAtATime: boolean;
  /**
   * Every gateway of a fleet opens this one database at once (a server, not a file of one process), so
   * limits kept in it hold for the fleet (the fleet limiter's shared buckets and write claims).
   */
  readonly sharedByGateways: boolean;
  /**
   * The clause to append to a SELECT (leading space included) that takes `lock` on its rows. Empty on
   * SQLite, whose write transactions already run one at a time.
   */
  lockingClause(lock: RowLock): string;
  /**
   * An aggregate expression: one JSON array of one object per row, built from `fields` (`'key', expr`
   * pairs as for a JSON object), in `orderBy` order. SQLite answers it as text, PostgreSQL parsed.
   */
  jsonArrayAgg(fields: string, orderBy: string): string;
}

export interface SqlExecutor extends SqlCapabilities {
  /** Runs a statement and returns its rows (empty for statements without RETURNING). */
  query<T extends SqlRow = SqlRow>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement and returns how many rows it changed. */
  execute(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * Locks the rows `select` reads (`FOR UPDATE`) until this transaction ends, so that transactions
   * locking the same rows run one after another. Runs nothing on SQLite, where they already do.
   */
  lockRows(select: string, params?: readonly unknown[]): Promise<void>;
}

/** One write of `writeTogether`, without RETURNING. */
export interface SqlWrite {
  readonly sql: string;
  readonly params: readonly unknown[];
  /**
   * The one row the write changes, named by key (e.g. `operations:<id>`), when it changes at most that
   * row: such a lead of `writeTogether`, with writes alongside that only insert, may share its statement
   * and commit with other callers' on PostgreSQL; two writes naming the same row never share one.
   */
  readonly row?: string;
}

export interface SqlDatabase extends SqlExecutor {
  /**
   * Runs `work` in one transaction; commits when it resolves, rolls back when it throws.
   * On SQLite transactions are serialized; on PostgreSQL each takes a pooled connection.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs `lead` and the writes `work` issues so that they commit together or not at all; answers how
   * many rows `lead` changed. `work` issues its writes before it first awaits, and reads nothing
   * through its executor (its writes may not have run yet). PostgreSQL runs them as one statement (the
   * writes as data-modifying CTEs: one round trip), SQLite in one transaction.
   */
  writeTogether(lead: SqlWrite, work: (tx: SqlExecutor) => Promise<void>): Promise<number>;
  /**
   * Upkeep the store itself needs while a gateway serves, run as background jobs (none when absent):
   * on PostgreSQL, the first planner statistics of tables that never had any (first-statistics.ts).
   * `warn` is told what the store leaves undone and why.
   */
  upkeep?(warn: (message: string, error: unknown) => void): readonly StoreUpkeep[];
  close(): Promise<void>;
}

/** One background job of a store's upkeep: what to run, and how often. */
export interface StoreUpkeep {
  readonly name: string;
  readonly intervalMs: number;
  run(): Promise<unknown>;
}

/** A versioned schema change. Ids sort in apply order; a domain prefixes its own. */
export interface Migration {
  readonly id: string;
  /** One SQL script for both dialects, or one per dialect. */
  readonly sql: string | { readonly sqlite: string; readonly postgres: string };
}
