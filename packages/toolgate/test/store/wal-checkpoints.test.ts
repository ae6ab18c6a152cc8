import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BACKSTOP_PAGES, SqliteDatabase } from '../../src/store/sqlite/sqlite-database.ts';
import { WalCheckpointer } from '../../src/store/sqlite/wal-checkpointer.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Once the thread is ready, the request connection checkpoints only as a backstop. */
async function backstopInPlace(db: SqliteDatabase): Promise<void> {
  let auto: unknown = null;
  for (let i = 0; i < 300 && auto !== BACKSTOP_PAGES; i += 1) {
    auto = (await db.query<{ wal_autocheckpoint: number }>('PRAGMA wal_autocheckpoint'))[0]
      ?.wal_autocheckpoint;
    if (auto !== BACKSTOP_PAGES) await sleep(10);
  }
  expect(auto).toBe(BACKSTOP_PAGES);
}

/**
 * Writes `groups` groups of `perGroup` 4 KB rows into a fresh `blobs` table, one group after another
 * (`between` runs after each), checks every row arrived, and answers the WAL file's largest size.
 */
async function streamBlobs(
  db: SqliteDatabase,
  file: string,
  stream: { groups: number; perGroup: number; between?: () => Promise<void> },
): Promise<number> {
  await db.execute('CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  await backstopInPlace(db);
  const body = 'x'.repeat(4096);
  let largestWal = 0;
  for (let group = 0; group < stream.groups; group += 1) {
    await Promise.all(
      Array.from({ length: stream.perGroup }, (_, i) =>
        db.execute('INSERT INTO blobs (id, body) VALUES (?, ?)', [group * stream.perGroup + i, body]),
      ),
    );
    largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
    await stream.between?.();
  }
  const [count] = await db.query<{ n: number }>('SELECT count(*) AS n FROM blobs');
  expect(Number(count!.n)).toBe(stream.groups * stream.perGroup);
  return largestWal;
}

/** WAL checkpoints run on a thread of their own; the request connection never checkpoints in a COMMIT. */
describe('SQLite WAL checkpoints off the request path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-wal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the thread takes over checkpointing; its checkpoints keep the WAL small while writes go on', async () => {
    const file = join(dir, 'bounded.db');
    const db = new SqliteDatabase(file, { checkpointerDelayMs: 0, checkpointIntervalMs: 60_000 });
    try {
      // 16 MB in groups, the thread checkpointing between them (as its timer does): each checkpoint
      // lets the next write start the WAL over, instead of the WAL holding all 16 MB.
      const largestWal = await streamBlobs(db, file, {
        groups: 80,
        perGroup: 50,
        between: async () => {
          const done = await db.checkpointer!.checkpointNow();
          expect(done.copied).toBe(done.frames);
        },
      });
      expect(largestWal).toBeLessThan(2 * 1024 * 1024);
    } finally {
      await db.close();
    }
  });

  test('writes that never pause for the thread still let the WAL start over', async () => {
    const file = join(dir, 'sustained.db');
    // A small threshold (256 pages, 1 MB) and a fast thread, so that a test-sized stream crosses it often.
    const db = new SqliteDatabase(file, {
      checkpointerDelayMs: 0,
      checkpointIntervalMs: 5,
      walResetFrames: 256,
    });
    try {
      // About 64 MB of pages, one group straight after another: each of the thread's checkpoints finds
      // frames appended while it copied, so none of them alone lets a write start the WAL over. Without
      // writes held for a checkpoint, the WAL grows until the request connection's backstop (about 40 MB).
      const largestWal = await streamBlobs(db, file, { groups: 400, perGroup: 20 });
      expect(largestWal).toBeLessThan(20 * 1024 * 1024);
    } finally {
      await db.close();
    }
  });

  test('a checkpoint thread that cannot run reports itself lost', async () => {
    const lost = await new Promise<string>((resolve) => {
      WalCheckpointer.start(join(dir, 'missing', 'no.db'), { onReady: () => {}, onLost: resolve }, 20);
    });
    expect(lost).toMatch(/directory does not exist|unable to open|exited/);
  });

  test('a checkpoint and close wait for the thread even when nothing else keeps the process alive', () => {
    // A script whose only work left is the thread's: the unreferenced thread let the process exit with
    // the wait unsettled, and the lines after it never ran.
    const script = join(dir, 'closing.mts');
    writeFileSync(
      script,
      `import { SqliteDatabase } from ${JSON.stringify(join(import.meta.dirname, '../../src/store/sqlite/sqlite-database.ts'))};
const db = new SqliteDatabase(${JSON.stringify(join(dir, 'closing.db'))}, { checkpointerDelayMs: 0 });
await db.execute('CREATE TABLE t (id INTEGER PRIMARY KEY)');
while (db.checkpointer === null) await new Promise((resolve) => setTimeout(resolve, 10));
await db.checkpointer.checkpointNow();
console.log('checkpointed');
// Two asked for at once: each waits for its own answer, and the thread is held until the last.
const both = await Promise.all([db.checkpointer.checkpointNow(), db.checkpointer.checkpointNow()]);
console.log(both.map((done) => typeof done.frames).join(' '));
await db.close();
console.log('closed');
`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      encoding: 'utf8',
      cwd: join(import.meta.dirname, '../../../..'),
    });
    expect(run.stderr).not.toMatch(/unsettled top-level await/);
    expect(run.stdout.trim().split('\n')).toEqual(['checkpointed', 'number number', 'closed']);
    expect(run.status).toBe(0);
  });

  test('a checkpoint asked of a stopped thread fails at once', async () => {
    const db = new SqliteDatabase(join(dir, 'stopped.db'), { checkpointerDelayMs: 0 });
    await db.execute('CREATE TABLE t (x INTEGER)');
    while (db.checkpointer === null) await sleep(10);
    const checkpointer = db.checkpointer;
    await db.close();
    await expect(checkpointer.checkpointNow(60_000)).rejects.toThrow(/stopped/);
  });

  test('a database closed before its thread started never starts one', async () => {
    const db = new SqliteDatabase(join(dir, 'short.db'));
    await db.execute('CREATE TABLE t (x INTEGER)');
    await db.close();
    await sleep(20);
    expect(db.checkpointer).toBeNull();
  });
});
