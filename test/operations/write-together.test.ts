import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTogether } from '../../src/store/deferred-writes.ts';
import { PostgresDatabase } from '../../src/store/postgres/postgres-database.ts';
import { createScratchDatabase, postgresAvailable, type ScratchDatabase } from '../support/pg.ts';

const pgUp = await postgresAvailable();

/** The one-statement settlement of PostgreSQL: a lead write and the writes queued with it. */
describe.skipIf(!pgUp)('writes that commit together in one statement (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: PostgresDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    db = await PostgresDatabase.connect(scratch.url);
    await db.execute('CREATE TABLE wt_lead (id TEXT PRIMARY KEY, state TEXT NOT NULL)');
    await db.execute('CREATE TABLE wt_note (id TEXT NOT NULL, text TEXT NOT NULL)');
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  const settle = (id: string) => ({ sql: "UPDATE wt_lead SET state = 'done' WHERE id = ?", params: [id] });
  const state = async (id: string) =>
    (await db.query<{ state: string }>('SELECT state FROM wt_lead WHERE id = ?', [id]))[0]?.state;
  const notes = async (id: string) =>
    (await db.query<{ text: string }>('SELECT text FROM wt_note WHERE id = ? ORDER BY text', [id])).map(
      (r) => r.text,
    );

  it('commits the lead and every queued write, and tells each how many rows it changed', async () => {
    await db.execute("INSERT INTO wt_lead (id, state) VALUES ('a', 'open')");
    const seen: number[] = [];
    const changed = await writeTogether(db, settle('a'), async (tx) => {
      const [one, two] = await Promise.all([
        tx.execute('INSERT INTO wt_note (id, text) VALUES (?, ?)', ['a', 'one']),
        tx.execute('INSERT INTO wt_note (id, text) VALUES (?, ?)', ['a', 'two']),
      ]);
      seen.push(one, two);
    });
    expect(changed).toBe(1);
    expect(seen).toEqual([1, 1]);
    expect(await state('a')).toBe('done');
    expect(await notes('a')).toEqual(['one', 'two']);
    // A lead that matches nothing still writes what was queued with it, and says 0.
    expect(
      await writeTogether(db, settle('missing'), async (tx) => {
        await tx.execute('INSERT INTO wt_note (id, text) VALUES (?, ?)', ['missing', 'kept']);
      }),
    ).toBe(0);
    expect(await notes('missing')).toEqual(['kept']);
  });

  it('a queued write that fails leaves the lead unwritten too, and the work sees the failure', async () => {
    await db.execute("INSERT INTO wt_lead (id, state) VALUES ('b', 'open')");
    let seenByWork: unknown;
    await expect(
      writeTogether(db, settle('b'), async (tx) => {
        try {
          await tx.execute('INSERT INTO wt_missing_table (id) VALUES (?)', ['b']);
        } catch (error) {
          seenByWork = error;
          throw error;
        }
      }),
    ).rejects.toThrow(/wt_missing_table/);
    expect(String(seenByWork)).toMatch(/wt_missing_table/);
    expect(await state('b')).toBe('open');
  });

  it('work that fails before queueing anything writes nothing', async () => {
    await db.execute("INSERT INTO wt_lead (id, state) VALUES ('c', 'open')");
    await expect(
      writeTogether(db, settle('c'), async () => {
        throw new Error('refused at once');
      }),
    ).rejects.toThrow('refused at once');
    expect(await state('c')).toBe('open');
  });

  it('a write issued after the work first waited is not lost: it runs on its own after the statement', async () => {
    await db.execute("INSERT INTO wt_lead (id, state) VALUES ('d', 'open')");
    await writeTogether(db, settle('d'), async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await tx.execute('INSERT INTO wt_note (id, text) VALUES (?, ?)', ['d', 'late'])).toBe(1);
    });
    expect(await state('d')).toBe('done');
    expect(await notes('d')).toEqual(['late']);
  });
});
