import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  deleteInBatches,
  nextBatch,
  PURGE_BATCH_LIMITS,
  PURGE_BATCH_ROWS,
  PURGE_STATEMENT_TARGET_MS,
} from '../../src/operations/retention.ts';
import type { SqlDatabase, SqlExecutor } from '../../src/store/sql-database.ts';
import { SqliteDatabase } from '../../src/store/sqlite/sqlite-database.ts';

describe('purge batches follow the time their statements take', () => {
  const target = PURGE_STATEMENT_TARGET_MS.writesOneAtATime;

  it('a statement over the target makes the next batch smaller in proportion', () => {
    expect(nextBatch(100, 4 * target, target)).toBe(25);
    expect(nextBatch(100, 1000, target)).toBe(PURGE_BATCH_LIMITS.least);
  });

  it('a quick statement makes the next one larger, at most twice as large and never past the most', () => {
    expect(nextBatch(100, target / 1.25, target)).toBe(125);
    expect(nextBatch(100, 0, target)).toBe(200);
    expect(nextBatch(PURGE_BATCH_LIMITS.most, 0, target)).toBe(PURGE_BATCH_LIMITS.most);
  });

  it('a statement on target keeps the batch', () => {
    expect(nextBatch(80, target, target)).toBe(80);
  });

  it('a store whose writes run side by side takes longer statements', () => {
    const sideBySide = PURGE_STATEMENT_TARGET_MS.sideBySide;
    expect(sideBySide).toBeGreaterThan(target);
    expect(nextBatch(100, sideBySide, sideBySide)).toBe(100);
    expect(nextBatch(100, sideBySide, target)).toBeLessThan(100);
  });
});

describe('a purge statement is timed by itself', () => {
  // A busy store keeps the purge's statements waiting behind other writes (on SQLite, in the same group
  // commit). Timed with the wait, every batch would shrink to the least and a purge of a million rows
  // would crawl; what a write waits behind is the statement's own time, so that is what sizes the next.
  it('a wait behind other writes does not shrink the next batch', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-purge-'));
    const db = new SqliteDatabase(join(dir, 'purge.db'), { checkpointerDelayMs: 60_000 });
    try {
      await db.execute('CREATE TABLE expired (id INTEGER PRIMARY KEY)');
      const rows = 6 * PURGE_BATCH_ROWS;
      await db.execute(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
         INSERT INTO expired (id) SELECT i FROM n`,
      );
      const asked: number[] = [];
      const spied = spyingOnLimits(db, asked);
      let busy = true;
      // Another writer holds the store 20 ms at a time, in turn with the purge's statements.
      const writer = (async () => {
        while (busy) await db.transaction(() => new Promise((resolve) => setTimeout(resolve, 20)));
      })();
      // A target of 5 ms, far above what a few hundred integer rows cost on any machine and far below the
      // writer's 20 ms: the batches' sizes then say which of the two each statement was timed by.
      const deleted = await deleteInBatches(
        spied,
        'DELETE FROM expired WHERE id IN (SELECT id FROM expired ORDER BY id LIMIT ?)',
        [],
        5,
      );
      busy = false;
      await writer;
      expect(deleted).toBe(rows);
      const [left] = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM expired');
      expect(left?.n).toBe(0);
      // Each statement waited about 20 ms behind the writer, four times the target, yet deleting a few
      // hundred integer rows takes well under it: the batches grew, none fell to the least (timed with
      // the wait they would have gone 100, 25, 6, 1).
      expect(asked[0]).toBe(PURGE_BATCH_ROWS);
      expect(Math.max(...asked)).toBeGreaterThan(PURGE_BATCH_ROWS);
      expect(Math.min(...asked)).toBeGreaterThan(PURGE_BATCH_LIMITS.least);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The database as the purge sees it, recording the row limit each of its statements asked for. */
function spyingOnLimits(db: SqlDatabase, asked: number[]): SqlDatabase {
  const recording = (tx: SqlExecutor): SqlExecutor =>
    new Proxy(tx, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver);
        return (sql: string, params: readonly unknown[] = []) => {
          asked.push(Number(params.at(-1)));
          return target.execute(sql, params);
        };
      },
    });
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'execute') return recording(target).execute;
      if (key !== 'transaction') return Reflect.get(target, key, receiver);
      return <T>(work: (tx: SqlExecutor) => Promise<T>) => target.transaction((tx) => work(recording(tx)));
    },
  });
}
