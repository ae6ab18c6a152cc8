import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '../../src/store/open-database.ts';

/** Issue 14.4: the SQLite store holds customer data; only its owner may read it. */
describe('data dir and database file modes', () => {
  const parent = mkdtempSync(join(tmpdir(), 'toolgate-modes-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  test.skipIf(process.platform === 'win32')('the data dir is created 0700 and its files 0600', async () => {
    const dataDir = join(parent, 'fresh', '.toolgate');
    const db = await openDatabase({ dataDir });
    await db.execute('CREATE TABLE t (x INTEGER)');
    await db.execute('INSERT INTO t VALUES (1)');
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    for (const file of ['toolgate.db', 'toolgate.db-wal', 'toolgate.db-shm']) {
      expect.soft(statSync(join(dataDir, file)).mode & 0o777, file).toBe(0o600);
    }
    await db.close();
  });
});
