import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import type { SqlDatabase } from '../../src/store/sql-database.ts';

/** A lead write and the writes issued with it commit together: on PostgreSQL as one statement, on SQLite in one transaction. */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`writes that commit together (${target.dialect})`, () => {
    let location: StoreLocation;
    let db: SqlDatabase;
    beforeAll(async () => {
      location = await target.create();
      db = await openDatabase(location.config);
      await db.execute('CREATE TABLE wt_lead (id TEXT PRIMARY KEY, state TEXT NOT NULL)');
      await db.execute('CREATE TABLE wt_note (id TEXT NOT NULL, text TEXT NOT NULL)');
    });
    afterAll(async () => {
      await db?.close();
      await location?.dispose();
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
      const changed = await db.writeTogether(settle('a'), async (tx) => {
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
        await db.writeTogether(settle('missing'), async (tx) => {
          await tx.execute('INSERT INTO wt_note (id, text) VALUES (?, ?)', ['missing', 'kept']);
        }),
      ).toBe(0);
      expect(await notes('missing')).toEqual(['kept']);
    });

    it('a queued write that fails leaves the lead unwritten too, and the work sees the failure', async () => {
      await db.execute("INSERT INTO wt_lead (id, state) VALUES ('b', 'open')");
      let seenByWork: unknown;
      await expect(
        db.writeTogether(settle('b'), async (tx) => {
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
        db.writeTogether(settle('c'), async () => {
          throw new Error('refused at once');
        }),
      ).rejects.toThrow('refused at once');
      expect(await state('c')).toBe('open');
    });

    it('a write issued after the work first waited is not lost (on PostgreSQL it runs after the statement)', async () => {
      await db.execute("INSERT INTO wt_lead (id, state) VALUES ('d', 'open')");
      await db.writeTogether(settle('d'), async (tx) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        expect(await tx.execute('INSERT INTO wt_note (id, text) VALUES (?, ?)', ['d', 'late'])).toBe(1);
      });
      expect(await state('d')).toBe('done');
      expect(await notes('d')).toEqual(['late']);
    });
  });
}
