import Database from 'better-sqlite3';
import type { SqlDatabase, SqlExecutor, SqlRow, SqlWrite } from '../sql-database.ts';
import { SqliteCapabilities } from './sqlite-capabilities.ts';
import { DEFAULT_CHECKPOINT_INTERVAL_MS, DEFAULT_RESET_FRAMES, WalCheckpointer } from './wal-checkpointer.ts';

export interface SqliteOptions {
  /** How often the checkpoint thread checkpoints the WAL (default 200 ms). */
  readonly checkpointIntervalMs?: number;
  /** How long after opening the checkpoint thread starts (default 1 s). */
  readonly checkpointerDelayMs?: number;
  /** The WAL size in pages past which writes are held for one checkpoint so the WAL can start over (default 4,096). */
  readonly walResetFrames?: number;
}

/** SQLite's own automatic checkpoint threshold, used again if the checkpoint thread is lost. */
const AUTOCHECKPOINT_PAGES = 1_000;
/** With the thread running: the WAL size (in pages, about 40 MB) past which the request connection checkpoints anyway. */
export const BACKSTOP_PAGES = 10_000;
const CHECKPOINTER_DELAY_MS = 1_000;
/** The longest writes are held for the checkpoint that lets the WAL start over. */
const RESET_WAIT_MS = 1_000;
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** One write waiting for its group: the work, and how to answer its caller once the group committed. */
interface GroupedWrite {
  readonly work: (tx: SqlExecutor) => Promise<unknown>;
  /**
   * One statement, not a transaction of several: SQLite undoes a statement that fails by itself and
   * keeps the transaction, so it needs no savepoint of its own.
   */
  readonly statement: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * SQLite through better-sqlite3 (WAL). Statements are synchronous and prepared once.
 *
 * Writes are committed in groups (group commit): the transactions and single writing statements
 * issued in one event-loop turn run at its end inside one BEGIN IMMEDIATE ... COMMIT, so the group
 * pays for one commit instead of one each. A write that fails fails alone: a transaction rolls back to
 * its own savepoint, a single statement is undone by SQLite itself (it needs no savepoint). Each caller
 * is answered only once the COMMIT carrying its write succeeded (if the COMMIT fails, every write of the
 * group failed and each caller is told so). Reads outside a transaction run at once, or after the group
 * in progress, never inside its uncommitted state.
 *
 * WAL checkpoints run on a thread of their own (wal-checkpointer.ts), not inside a COMMIT on the event
 * loop; under writes that never pause, writes are held now and then for one of its checkpoints, so the
 * WAL starts over.
 */
export class SqliteDatabase extends SqliteCapabilities implements SqlDatabase {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  /** Tail of the group queue; plain reads wait behind an open group. */
  #queue: Promise<unknown> = Promise.resolve();
  #inTransaction = false;
  /** Writes waiting for the end of this event-loop turn, when they run as one group. */
  #waiting: GroupedWrite[] = [];
  readonly #checkpointerStart: NodeJS.Timeout;
  #checkpointer: WalCheckpointer | null = null;
  /** Writes are held for a checkpoint that lets the WAL start over. */
  #holding = false;
  readonly #tx: SqlExecutor = Object.assign(new SqliteCapabilities(), {
    query: async <R extends SqlRow>(sql: string, params: readonly unknown[] = []) =>
      this.#all<R>(sql, params),
    execute: async (sql: string, params: readonly unknown[] = []) => this.#run(sql, params),
    lockRows: async () => undefined,
  });

  constructor(file: string, options: SqliteOptions = {}) {
    super();
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    this.#db.pragma('foreign_keys = ON');
    // A WAL reset after a checkpoint truncates the file back to this size.
    this.#db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    const interval = options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
    const resetFrames = options.walResetFrames ?? DEFAULT_RESET_FRAMES;
    // A short-lived process (lint, contract export) never starts the thread; a server soon does.
    this.#checkpointerStart = setTimeout(
      () => this.#startCheckpointer(file, interval, resetFrames),
      options.checkpointerDelayMs ?? CHECKPOINTER_DELAY_MS,
    );
    this.#checkpointerStart.unref();
  }

  /** The WAL checkpoint thread, once started (null before, and if it was lost). */
  get checkpointer(): WalCheckpointer | null {
    return this.#checkpointer;
  }

  #startCheckpointer(file: string, intervalMs: number, resetFrames: number): void {
    if (!this.#db.open) return;
    const checkpointer = WalCheckpointer.start(
      file,
      {
        // From now on the request connection checkpoints inside a COMMIT only as a backstop, if the
        // thread falls so far behind that the WAL passes BACKSTOP_PAGES.
        onReady: () => {
          if (this.#db.open) this.#db.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
        },
        onLost: () => {
          this.#checkpointer = null;
          if (this.#db.open) this.#db.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
        },
        onBehind: () => this.#holdWritesForCheckpoint(),
      },
      intervalMs,
      resetFrames,
    );
    this.#checkpointer = checkpointer;
  }

  /**
   * Writes that never pause keep the thread's checkpoints from ever copying the whole WAL, and only a
   * whole copy lets the next write start the WAL over: it would grow to the backstop, and the request
   * connection would checkpoint inside a COMMIT, blocking the event loop. Instead the groups queued
   * from now on wait while the thread checkpoints once with no write in between (a few milliseconds);
   * reads and everything else go on. A thread that does not answer in time releases the writes.
   */
  #holdWritesForCheckpoint(): void {
    const checkpointer = this.#checkpointer;
    if (this.#holding || checkpointer === null) return;
    this.#holding = true;
    const release = () => {
      this.#holding = false;
    };
    const checkpoint = () => checkpointer.checkpointNow(RESET_WAIT_MS).then(release, release);
    this.#queue = this.#queue.then(checkpoint, checkpoint);
  }

  async query<T extends SqlRow = SqlRow>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.#writes(sql)) return this.#grouped((tx) => tx.query<T>(sql, params), true);
    if (this.#inTransaction) await this.#queue;
    return this.#all<T>(sql, params);
  }

  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    if (this.#writes(sql)) return this.#grouped((tx) => tx.execute(sql, params), true);
    if (this.#inTransaction) await this.#queue;
    return this.#run(sql, params);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#grouped(work, false);
  }

  /** Write transactions run one at a time here: there is nothing to lock. */
  async lockRows(): Promise<void> {}

  /** One transaction: SQLite has no data-modifying CTEs. */
  writeTogether(lead: SqlWrite, work: (tx: SqlExecutor) => Promise<void>): Promise<number> {
    return this.transaction(async (tx) => {
      const changed = await tx.execute(lead.sql, lead.params);
      await work(tx);
      return changed;
    });
  }

  /**
   * Whether a statement writes (and so joins a group). One that cannot be prepared yet (its table comes
   * from a write still queued) is treated as a write: it runs in order after that write.
   */
  #writes(sql: string): boolean {
    try {
      return !this.#prepare(sql).readonly;
    } catch {
      return true;
    }
  }

  /** Queues a write for this turn's group; answers its result once the group committed. */
  #grouped<T>(work: (tx: SqlExecutor) => Promise<T>, statement: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => this.#runGroup());
      this.#waiting.push({ work, statement, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  #runGroup(): void {
    const group = this.#waiting;
    if (group.length === 0) return;
    this.#waiting = [];
    const run = () => this.#commitGroup(group);
    this.#queue = this.#queue.then(run, run);
  }

  async #commitGroup(group: readonly GroupedWrite[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    // A group of one needs no savepoint: if its write fails, the whole transaction rolls back.
    const alone = group.length === 1;
    this.#inTransaction = true;
    try {
      this.#control('BEGIN IMMEDIATE');
      for (const write of group) {
        const savepoint = !alone && !write.statement;
        if (savepoint) this.#control('SAVEPOINT grouped_write');
        try {
          outcomes.push({ ok: true, value: await write.work(this.#tx) });
          if (savepoint) this.#control('RELEASE grouped_write');
        } catch (error) {
          outcomes.push({ ok: false, error });
          if (savepoint) {
            this.#control('ROLLBACK TO grouped_write');
            this.#control('RELEASE grouped_write');
          }
          // Some errors (a full disk, an I/O error) roll back the whole transaction, not just the
          // statement: then nothing of the group is stored, and every write of it is told so.
          if (!this.#db.inTransaction) throw error;
        }
      }
      this.#control(alone && !outcomes[0]?.ok ? 'ROLLBACK' : 'COMMIT');
    } catch (error) {
      // BEGIN, a savepoint or the COMMIT failed: nothing of the group is stored.
      if (this.#db.inTransaction) this.#control('ROLLBACK');
      group.forEach((write, i) => {
        const outcome = outcomes[i];
        write.reject(outcome && !outcome.ok ? outcome.error : error);
      });
      return;
    } finally {
      this.#inTransaction = false;
    }
    group.forEach((write, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.error);
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.#checkpointerStart);
    // Writes queued this turn still run as a group before the database closes.
    if (this.#waiting.length > 0) this.#runGroup();
    await this.#queue;
    await this.#checkpointer?.stop();
    // The last connection to close checkpoints the whole WAL and removes it.
    this.#db.close();
  }

  /** A transaction-control statement, prepared once like any other instead of parsed on every group. */
  #control(sql: string): void {
    this.#prepare(sql).run();
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
