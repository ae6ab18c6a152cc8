import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { SqliteDatabase } from '../../src/store/sqlite/sqlite-database.ts';

/** Every BEGIN and COMMIT better-sqlite3 executes, in order, with what the callers saw in between. */
const events: string[] = [];
/** Transaction control runs as prepared statements: the prototype all of them share. */
const probe = new Database(':memory:');
const statementPrototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Database.Statement;
probe.close();
const run = statementPrototype.run;

/**
 * Group commit on SQLite: the writes of one event-loop turn share one transaction and one commit,
 * each caller answered only after that commit, a failing write failing alone.
 */
describe('SQLite group commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-group-'));
  let db: SqliteDatabase;
  let n = 0;

  beforeAll(() => {
    statementPrototype.run = function (this: Database.Statement, ...params: unknown[]) {
      const kind = /^(BEGIN|COMMIT|ROLLBACK TO|ROLLBACK)/.exec(this.source);
      if (kind) events.push(kind[1]!);
      return run.apply(this, params);
    };
  });
  afterAll(() => {
    statementPrototype.run = run;
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    db = new SqliteDatabase(join(dir, `group-${++n}.db`));
    await db.execute('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)');
    await db.execute('CREATE TABLE parents (id INTEGER PRIMARY KEY)');
    await db.execute(
      'CREATE TABLE children (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents (id))',
    );
    events.length = 0;
  });
  afterEach(() => db.close());

  const count = async () => Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM notes'))[0]!.n);

  test('transactions and single writes of one turn commit once, and each caller learns its own result', async () => {
    const answers = await Promise.all([
      db.transaction(async (tx) => {
        await tx.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'a']);
        await tx.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [2, 'b']);
        return 'two';
      }),
      db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [3, 'c']),
      db.query('INSERT INTO notes (id, text) VALUES (?, ?) RETURNING id', [4, 'd']),
    ]);
    expect(answers).toEqual(['two', 1, [{ id: 4 }]]);
    expect(events).toEqual(['BEGIN', 'COMMIT']);
    expect(await count()).toBe(4);
  });

  test('a write that fails rolls back alone; the others of its group commit', async () => {
    const results = await Promise.allSettled([
      db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'kept']),
      db.transaction(async (tx) => {
        await tx.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [2, 'rolled back']);
        throw new Error('the domain refused it');
      }),
      db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'duplicate id']),
      db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [3, 'kept too']),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain('the domain refused it');
    expect(String((results[2] as PromiseRejectedResult).reason)).toContain('UNIQUE');
    // The failed transaction rolled back to its own savepoint, the failed statement was undone by
    // SQLite alone; the group still committed once.
    expect(events).toEqual(['BEGIN', 'ROLLBACK TO', 'COMMIT']);
    expect(await db.query('SELECT id, text FROM notes ORDER BY id')).toEqual([
      { id: 1, text: 'kept' },
      { id: 3, text: 'kept too' },
    ]);
  });

  test('a statement that rolls back the whole transaction fails every write of its group, and nothing is stored', async () => {
    await db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'before']);
    events.length = 0;
    const results = await Promise.allSettled([
      db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [2, 'innocent']),
      // OR ROLLBACK ends the transaction itself, as a full disk or an I/O error would.
      db.execute('INSERT OR ROLLBACK INTO notes (id, text) VALUES (?, ?)', [1, 'conflict']),
      db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [3, 'never run']),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of results)
      expect(String((result as PromiseRejectedResult).reason)).toContain('UNIQUE');
    expect(events).toEqual(['BEGIN']);
    expect(await db.query('SELECT id, text FROM notes ORDER BY id')).toEqual([{ id: 1, text: 'before' }]);
  });

  test('a write alone in its group that fails rolls back without a savepoint, and nothing of it is stored', async () => {
    const failing = db.transaction(async (tx) => {
      await tx.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'rolled back']);
      throw new Error('the domain refused it');
    });
    await expect(failing).rejects.toThrow('the domain refused it');
    expect(events).toEqual(['BEGIN', 'ROLLBACK']);
    expect(await count()).toBe(0);
    // The next group starts clean.
    await db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [2, 'kept']);
    expect(events).toEqual(['BEGIN', 'ROLLBACK', 'BEGIN', 'COMMIT']);
    expect(await count()).toBe(1);
  });

  test('when the COMMIT fails, every write of the group is told it failed and nothing is stored', async () => {
    const results = await Promise.allSettled([
      db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'innocent']),
      db.transaction(async (tx) => {
        // A deferred foreign key is checked at COMMIT: the whole group's commit fails.
        await tx.execute('PRAGMA defer_foreign_keys = ON');
        await tx.execute('INSERT INTO children (id, parent) VALUES (?, ?)', [1, 404]);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(events).toEqual(['BEGIN', 'COMMIT', 'ROLLBACK']);
    expect(await count()).toBe(0);
  });

  test('a caller is answered only after the commit; a read never sees a group uncommitted', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const write = db.transaction(async (tx) => {
      await tx.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'slow']);
      await held;
    });
    const answered = write.then(() => events.push('answered'));
    // Once the group has begun, a read waits for it rather than reading its uncommitted row.
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['BEGIN']);
    const read = db.query<{ text: string }>('SELECT text FROM notes');
    release();
    expect(await read).toEqual([{ text: 'slow' }]);
    await answered;
    expect(events).toEqual(['BEGIN', 'COMMIT', 'answered']);
  });

  test('writes queued when the database closes still commit', async () => {
    const pending = db.execute('INSERT INTO notes (id, text) VALUES (?, ?)', [1, 'last']);
    await db.close();
    await expect(pending).resolves.toBe(1);
    const reopened = new SqliteDatabase(join(dir, `group-${n}.db`));
    expect(await reopened.query('SELECT text FROM notes')).toEqual([{ text: 'last' }]);
    db = reopened;
  });
});
