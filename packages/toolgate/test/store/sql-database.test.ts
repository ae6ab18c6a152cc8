import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import { runMigrations } from '../../src/store/migrations.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import { numberPlaceholders } from '../../src/store/postgres/placeholders.ts';
import type { SqlDatabase } from '../../src/store/sql-database.ts';

describe('placeholder translation', () => {
  it('numbers ? outside literals, quoted identifiers and comments', () => {
    expect(numberPlaceholders(`SELECT '?', "a?b", x FROM t WHERE a = ? AND b = ? -- why?\nAND c = ?`)).toBe(
      `SELECT '?', "a?b", x FROM t WHERE a = $1 AND b = $2 -- why?\nAND c = $3`,
    );
    expect(numberPlaceholders(`SELECT 'it''s ?' WHERE a = ?`)).toBe(`SELECT 'it''s ?' WHERE a = $1`);
  });
});

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`SqlDatabase on ${target.dialect}`, () => {
    let location: StoreLocation;
    let db: SqlDatabase;

    beforeAll(async () => {
      location = await target.create();
      db = await openDatabase(location.config);
      await runMigrations(db, [
        {
          id: '0900_store_test',
          sql: 'CREATE TABLE things (id TEXT PRIMARY KEY, n BIGINT NOT NULL, flag INTEGER NOT NULL, body TEXT)',
        },
      ]);
    });
    afterAll(async () => {
      await db?.close();
      await location?.dispose();
    });

    it('reports its dialect', () => {
      expect(db.dialect).toBe(target.dialect);
    });

    it('returns BIGINT as numbers and booleans as 0/1', async () => {
      const at = Date.UTC(2030, 0, 1);
      await db.execute('INSERT INTO things (id, n, flag, body) VALUES (?, ?, ?, ?)', ['a', at, true, null]);
      const rows = await db.query<{ n: number; flag: number; body: string | null }>(
        'SELECT n, flag, body FROM things WHERE id = ?',
        ['a'],
      );
      expect(rows).toEqual([{ n: at, flag: 1, body: null }]);
    });

    it('reserves atomically with INSERT ... ON CONFLICT DO NOTHING RETURNING', async () => {
      const sql =
        'INSERT INTO things (id, n, flag) VALUES (?, ?, 0) ON CONFLICT (id) DO NOTHING RETURNING id';
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => db.query(sql, ['k', i])));
      expect(results.filter((rows) => rows.length === 1)).toHaveLength(1);
      expect(await db.query('SELECT id FROM things WHERE id = ?', ['k'])).toHaveLength(1);
    });

    it('counts changed rows', async () => {
      await db.execute("INSERT INTO things (id, n, flag) VALUES ('c1', 1, 0), ('c2', 1, 0)");
      expect(await db.execute('UPDATE things SET n = n + 1 WHERE id IN (?, ?)', ['c1', 'c2'])).toBe(2);
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      await db.transaction(async (tx) => {
        await tx.execute('INSERT INTO things (id, n, flag) VALUES (?, 1, 0)', ['t1']);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.execute('INSERT INTO things (id, n, flag) VALUES (?, 1, 0)', ['t2']);
          throw new Error('abandon');
        }),
      ).rejects.toThrow('abandon');
      const ids = await db.query<{ id: string }>("SELECT id FROM things WHERE id LIKE 't%' ORDER BY id");
      expect(ids.map((r) => r.id)).toEqual(['t1']);
    });

    it('keeps concurrent transactions from losing updates', async () => {
      await db.execute("INSERT INTO things (id, n, flag) VALUES ('counter', 0, 0)");
      await Promise.all(
        Array.from({ length: 10 }, () =>
          db.transaction(async (tx) => {
            const lock = tx.lockingClause('update');
            const [row] = await tx.query<{ n: number }>(`SELECT n FROM things WHERE id = ?${lock}`, [
              'counter',
            ]);
            await tx.execute('UPDATE things SET n = ? WHERE id = ?', [row!.n + 1, 'counter']);
          }),
        ),
      );
      const [row] = await db.query<{ n: number }>('SELECT n FROM things WHERE id = ?', ['counter']);
      expect(row!.n).toBe(10);
    });

    it('runs transactions that lock the same rows one after another', async () => {
      await db.execute("INSERT INTO things (id, n, flag) VALUES ('locked', 0, 0)");
      await Promise.all(
        Array.from({ length: 10 }, () =>
          db.transaction(async (tx) => {
            await tx.lockRows('SELECT id FROM things WHERE id = ?', ['locked']);
            const [row] = await tx.query<{ n: number }>('SELECT n FROM things WHERE id = ?', ['locked']);
            await tx.execute('UPDATE things SET n = ? WHERE id = ?', [row!.n + 1, 'locked']);
          }),
        ),
      );
      const [row] = await db.query<{ n: number }>('SELECT n FROM things WHERE id = ?', ['locked']);
      expect(row!.n).toBe(10);
    });

    it('aggregates rows into one JSON array of objects, in the order asked', async () => {
      for (const [id, n] of [
        ['agg-b', 2],
        ['agg-a', 3],
        ['agg-c', 1],
      ] as const) {
        await db.execute('INSERT INTO things (id, n, flag) VALUES (?, ?, 0)', [id, n]);
      }
      const [row] = await db.query<{ items: unknown }>(
        `SELECT ${db.jsonArrayAgg("'id', t.id, 'n', t.n", 't.n')} AS items FROM things t WHERE t.id LIKE 'agg-%'`,
      );
      const items = typeof row!.items === 'string' ? JSON.parse(row!.items) : row!.items;
      expect(items).toEqual([
        { id: 'agg-c', n: 1 },
        { id: 'agg-b', n: 2 },
        { id: 'agg-a', n: 3 },
      ]);
    });

    it('applies each migration once', async () => {
      const again = await runMigrations(db, [
        { id: '0900_store_test', sql: 'CREATE TABLE things (id TEXT PRIMARY KEY)' },
      ]);
      expect(again).toEqual([]);
    });
  });
}
