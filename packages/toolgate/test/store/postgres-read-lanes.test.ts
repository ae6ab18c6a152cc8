import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../../../test/support/pg.ts';
import { PostgresDatabase } from '../../src/store/postgres/postgres-database.ts';
import { isPlainRead, READ_LANE_APPLICATION_NAME } from '../../src/store/postgres/read-lanes.ts';
import { isStoreUnavailable } from '../../src/store/store-unavailable.ts';

describe('which statements a read lane may take', () => {
  it('plain SELECTs only: nothing that writes, locks rows or calls a locking or sleeping function', () => {
    for (const sql of [
      'SELECT * FROM operations WHERE id = ?',
      '  select id from t where a = ? order by id limit 5',
      'SELECT json_agg(x) FROM (SELECT 1) AS x',
    ]) {
      expect(isPlainRead(sql), sql).toBe(true);
    }
    for (const sql of [
      'SELECT id FROM t WHERE id = ? FOR UPDATE',
      'SELECT id FROM t WHERE id = ? FOR UPDATE SKIP LOCKED',
      'SELECT id FROM t FOR NO KEY UPDATE',
      'SELECT id FROM t for share',
      'SELECT id FROM t FOR KEY SHARE',
      'SELECT pg_advisory_xact_lock(7)',
      'SELECT pg_try_advisory_lock(7)',
      'SELECT pg_sleep(1)',
      'SELECT * INTO archived FROM t',
      'WITH ins AS (INSERT INTO t (id) VALUES (?) RETURNING id) SELECT * FROM ins',
      'INSERT INTO t (id) VALUES (?)',
      'UPDATE t SET a = ? WHERE id = ?',
      '-- a comment first\nSELECT 1',
      // Erring on the safe side: the words anywhere, even in a literal, keep a statement off the lanes.
      "SELECT 'for update' AS note FROM t",
    ]) {
      expect(isPlainRead(sql), sql).toBe(false);
    }
  });
});

const pgUp = await postgresAvailable();

/** Counts, while on, the statements sent on a pipelined connection (a lane) and on any other. */
const sent = { lane: [] as string[], pool: [] as string[] };
const clientQuery = pg.Client.prototype.query;
function countStatements(): void {
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
    this: pg.Client & { pipeline?: boolean },
    ...args: unknown[]
  ) {
    const first = args[0] as string | { text: string };
    const text = typeof first === 'string' ? first : first.text;
    (this.pipeline ? sent.lane : sent.pool).push(text);
    return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
  };
}

describe.skipIf(!pgUp)('PostgreSQL read lanes', () => {
  let scratch: ScratchDatabase;
  let db: PostgresDatabase;
  let admin: pg.Client;

  const laneBackends = async () =>
    (
      await admin.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
        [scratch.name, READ_LANE_APPLICATION_NAME],
      )
    ).rows.map((r) => r.pid);

  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 100; i += 1) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting until ${what}`);
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    await admin.query(
      'CREATE TABLE numbers (n INTEGER PRIMARY KEY, word TEXT NOT NULL); CREATE TABLE locked (id INTEGER)',
    );
    await admin.query("INSERT INTO numbers SELECT g, 'n' || g FROM generate_series(1, 500) AS g");
    db = await PostgresDatabase.connect(scratch.url);
    countStatements();
  });
  afterEach(() => {
    sent.lane.length = 0;
    sent.pool.length = 0;
  });
  afterAll(async () => {
    pg.Client.prototype.query = clientQuery;
    await db?.close();
    await admin?.end();
    await scratch?.drop();
  });

  it('many reads written together each get their own rows, all on one lane connection', async () => {
    expect(await laneBackends()).toHaveLength(1);
    const ns = Array.from({ length: 300 }, (_, i) => ((i * 7) % 500) + 1);
    const rows = await Promise.all(
      ns.map((n) => db.query<{ n: number; word: string }>('SELECT n, word FROM numbers WHERE n = ?', [n])),
    );
    expect(rows.map((r) => r[0])).toEqual(ns.map((n) => ({ n, word: `n${n}` })));
    // A lane holds at most 32 unanswered statements; the rest of a burst goes to the pool.
    const numbers = (list: string[]) => list.filter((s) => /numbers/.test(s)).length;
    expect(numbers(sent.lane)).toBeGreaterThanOrEqual(32);
    expect(numbers(sent.lane) + numbers(sent.pool)).toBe(300);
  });

  it('a failing read fails alone: the reads written with it still answer', async () => {
    const divisors = [1, 2, 0, 4, 5, 6, 7, 8];
    const answers = await Promise.allSettled(
      divisors.map((d) => db.query<{ q: number }>('SELECT 840 / ?::int AS q', [d])),
    );
    expect(
      answers.map((a) => (a.status === 'fulfilled' ? a.value[0]!.q : (a.reason as { code: string }).code)),
    ).toEqual([840, 420, '22012', 210, 168, 140, 120, 105]);
    expect(sent.lane).toHaveLength(divisors.length);
  });

  it('writes, row locks and statements inside a transaction never go to a lane', async () => {
    await db.execute('INSERT INTO locked (id) VALUES (?)', [1]);
    await db.query('SELECT id FROM locked WHERE id = ? FOR UPDATE', [1]);
    await db.transaction(async (tx) => {
      await tx.query('SELECT id FROM locked WHERE id = ?', [1]);
    });
    expect(sent.lane).toEqual([]);
    expect(sent.pool.filter((s) => /locked/.test(s))).toHaveLength(3);
  });

  it('a lane stalled behind a slow read is passed over: other reads go to the pool meanwhile', async () => {
    const holder = new pg.Client({ connectionString: scratch.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE locked IN ACCESS EXCLUSIVE MODE');
      // This plain read waits for the table lock on the lane.
      const stuck = db.query<{ id: number }>('SELECT id FROM locked WHERE id = ?', [1]);
      await until('the read has been sent on the lane', async () => sent.lane.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 120));
      // Past the stall limit the lane takes nothing more; the pool answers while the lock is held.
      expect(await db.query<{ word: string }>('SELECT word FROM numbers WHERE n = ?', [7])).toEqual([
        { word: 'n7' },
      ]);
      expect(sent.lane).toHaveLength(1);
      expect(sent.pool.filter((s) => /numbers/.test(s))).toHaveLength(1);
      await holder.query('COMMIT');
      expect(await stuck).toEqual([{ id: 1 }]);
    } finally {
      await holder.end();
    }
    // Answered, the lane takes reads again.
    await db.query('SELECT word FROM numbers WHERE n = ?', [8]);
    expect(sent.lane).toHaveLength(2);
  });

  it('a lane whose connection is killed fails only what it held, then reconnects; the pool serves meanwhile', async () => {
    const [pid] = await laneBackends();
    expect(pid).toBeDefined();
    const inFlight = Array.from({ length: 10 }, (_, i) =>
      db.query<{ n: number }>('SELECT n FROM numbers WHERE n = ?', [i + 1]).then(
        (rows) => rows[0]!.n,
        (error: unknown) => error,
      ),
    );
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    for (const [i, answer] of (await Promise.all(inFlight)).entries()) {
      // Each read either answered before the kill, or failed as the database being unavailable.
      if (typeof answer === 'number') expect(answer).toBe(i + 1);
      else expect(isStoreUnavailable(answer), String(answer)).toBe(true);
    }
    // Reads keep answering: from the pool until a new lane is up (a second on), then from it.
    await until('a new lane connection serves reads', async () => {
      // A read written to the killed lane before its end was noticed fails as unavailable too: not yet.
      const rows = await db.query<{ n: number }>('SELECT n FROM numbers WHERE n = ?', [42]).catch((error) => {
        if (isStoreUnavailable(error)) return null;
        throw error;
      });
      if (rows === null) return false;
      expect(rows).toEqual([{ n: 42 }]);
      const backends = await laneBackends();
      return backends.length === 1 && backends[0] !== pid && sent.lane.length > 0 && sent.pool.length > 0;
    });
  });

  it('close ends the lane connection', async () => {
    const other = await PostgresDatabase.connect(scratch.url);
    expect(await laneBackends()).toHaveLength(2);
    await other.close();
    await until('the closed database has no lane', async () => (await laneBackends()).length === 1);
  });

  it('with no lanes every statement takes the pool', async () => {
    await db.close();
    db = await PostgresDatabase.connect(scratch.url, { readLanes: 0 });
    await until('no lane is connected', async () => (await laneBackends()).length === 0);
    expect(await db.query('SELECT word FROM numbers WHERE n = ?', [3])).toEqual([{ word: 'n3' }]);
    expect(sent.lane).toEqual([]);
  });
});
