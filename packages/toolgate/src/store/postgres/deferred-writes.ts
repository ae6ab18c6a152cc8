import { SentTogether } from '../sent-together.ts';
import type { SqlDatabase, SqlExecutor, SqlRow, SqlWrite } from '../sql-database.ts';
import { PostgresCapabilities } from './postgres-capabilities.ts';

interface DeferredWrite {
  readonly sql: string;
  readonly params: readonly unknown[];
  resolve(changed: number): void;
  reject(error: unknown): void;
}

/**
 * Runs one write and the writes `work` issues as ONE PostgreSQL statement (the others as
 * data-modifying CTEs): they commit together, or not at all, in a single round trip instead of
 * BEGIN, each statement and COMMIT. Answers how many rows the lead write changed.
 *
 * `work` gets an executor whose `execute` only queues its write and resolves with the rows it changed
 * once the statement has committed (rejects when it failed, so `work` sees the failure as it would in
 * a transaction). Writes `work` issues before it first awaits join the statement; a write issued later
 * runs on its own after it (nothing is lost, but it no longer commits together). Its `query` and
 * `lockRows` reject: rows of a write that has not run yet do not exist. Lead and queued writes must not
 * use RETURNING. PostgreSQL's `writeTogether`; SQLite has no data-modifying CTEs and uses one transaction.
 * With `shared`, a lead that names its row and writes that only insert may share the statement with
 * other callers' groups (`SharedStatements`).
 */
export async function writeInOneStatement(
  db: SqlDatabase,
  lead: SqlWrite,
  work: (tx: SqlExecutor) => Promise<void>,
  shared?: SharedStatements,
): Promise<number> {
  const queued: DeferredWrite[] = [];
  let sealed = false;
  const noRowsYet = () =>
    Promise.reject(new Error('a write queued to run with another one has no rows to read yet'));
  const executor: SqlExecutor = Object.assign(new PostgresCapabilities(), {
    query: <T extends SqlRow>(): Promise<T[]> => noRowsYet(),
    lockRows: (): Promise<void> => noRowsYet(),
    execute(sql: string, params: readonly unknown[] = []): Promise<number> {
      if (sealed) return db.execute(sql, params);
      return new Promise<number>((resolve, reject) => queued.push({ sql, params, resolve, reject }));
    },
  });
  const running = work(executor);
  let failedEarly: { readonly error: unknown } | null = null;
  // Observed at once, so a failure of `work` before the statement has run is not an unhandled rejection.
  running.catch((error: unknown) => {
    failedEarly = { error };
  });
  // One turn for a `work` that failed at once: as in a transaction, then nothing is written at all.
  await null;
  sealed = true;
  if (failedEarly) throw (failedEarly as { readonly error: unknown }).error;
  const writes = [lead, ...queued];
  let counts: readonly number[];
  try {
    counts =
      shared && lead.row !== undefined && queued.every((w) => INSERT.test(w.sql))
        ? await shared.run(writes, lead.row)
        : await together(db, writes);
  } catch (error) {
    for (const write of queued) write.reject(error);
    await running.catch(() => undefined);
    throw error;
  }
  queued.forEach((write, i) => {
    write.resolve(counts[i + 1] ?? 0);
  });
  await running;
  return counts[0] ?? 0;
}

const INSERT = /^\s*INSERT\b/i;

/** Several writes as one statement, the others as data-modifying CTEs; how many rows each changed. */
async function together(db: SqlDatabase, writes: readonly SqlWrite[]): Promise<number[]> {
  const sql = `WITH ${writes.map((w, i) => `w${i} AS (${w.sql} RETURNING 1)`).join(', ')}
    SELECT ${writes.map((_, i) => `(SELECT count(*) FROM w${i}) AS n${i}`).join(', ')}`;
  const [counts = {}] = await db.query(
    sql,
    writes.flatMap((w) => w.params),
  );
  return writes.map((_, i) => Number(counts[`n${i}`]));
}

interface SharedGroup {
  readonly writes: readonly SqlWrite[];
  readonly row: string;
}

/**
 * Groups of writes of different callers in one statement (../sent-together.ts). Each group commits as
 * a whole, as `writeInOneStatement` promises; sharing the statement (and its commit) with other groups
 * costs it nothing but spares each a round trip and a commit.
 *
 * Only groups whose lead names the one row it changes and whose other writes only insert may share: two
 * data-modifying CTEs of one statement that change the same row would leave only one change, so two
 * groups naming the same row never share a statement (the second waits for the next).
 */
export class SharedStatements {
  readonly #sent: SentTogether<SharedGroup, number[]>;

  constructor(db: SqlDatabase) {
    this.#sent = new SentTogether({
      key: (group) => group.row,
      alone: (group) => together(db, group.writes),
      together: async (groups) => {
        const counts = await together(
          db,
          groups.flatMap((group) => group.writes),
        );
        let next = 0;
        return groups.map((group) => {
          const own = counts.slice(next, next + group.writes.length);
          next += group.writes.length;
          return own;
        });
      },
    });
  }

  run(writes: readonly SqlWrite[], row: string): Promise<number[]> {
    return this.#sent.run({ writes, row });
  }
}
