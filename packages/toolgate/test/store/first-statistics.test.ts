import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../../../test/support/pg.ts';
import { FRAMEWORK_MIGRATIONS } from '../../src/operations/framework-parts.ts';
import { runMigrations } from '../../src/store/migrations.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import { FirstStatistics } from '../../src/store/postgres/first-statistics.ts';
import type { SqlDatabase } from '../../src/store/sql-database.ts';

const pgUp = await postgresAvailable();
if (!pgUp) console.warn('\n!!! first statistics on postgres are SKIPPED: no PostgreSQL server answers !!!\n');

/** The key lookup of every write and replay, as the read lane prepares it. */
const LOOKUP = 'SELECT * FROM operations WHERE tenant = $1 AND subject = $2 AND idem_key = $3';

describe.skipIf(!pgUp)('first planner statistics on a new PostgreSQL database', () => {
  let scratch: ScratchDatabase;
  let db: SqlDatabase;
  const warnings: string[] = [];
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    db = await openDatabase({ dataDir: '', databaseUrl: scratch.url });
    await runMigrations(db, FRAMEWORK_MIGRATIONS);
  });
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it('analyses a table once it holds rows, and a lookup prepared while it was empty then takes the unique key', async () => {
    const statistics = new FirstStatistics(db, (message) => warnings.push(message), 500);
    // Empty tables are left alone: statistics of nothing would say nothing.
    expect(await statistics.check()).toEqual([]);
    // A connection that prepared the lookup while the table was new, and settled on its generic plan.
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      await client.query(`PREPARE lookup(text, text, text) AS ${LOOKUP}`);
      for (let i = 0; i < 6; i++) await client.query("EXECUTE lookup('t1', 'alice', 'k')");
      const plan = async () =>
        (await client.query<{ 'QUERY PLAN': string }>("EXPLAIN EXECUTE lookup('t1', 'alice', 'k')")).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      const planned = await plan();
      // In one transaction with a flush of its counts, so they reach the statistics views now rather than
      // when the pooled connection next reports (up to ten seconds idle).
      await db.transaction(async (tx) => {
        await tx.execute(
          `INSERT INTO operations (id, tenant, subject, idem_key, tool, contract_version, fingerprint, mode, status,
          attempts, reconcile_attempts, checkpoints, external_refs, correlation_id, created_at, updated_at, expires_at)
         SELECT 'op-' || x, 't1', 'alice', 'key-' || x, 'notes_add', '1', 'fp', 'execute', 'completed', 1, 0, '{}',
           '{}', 'c', 0, 0, 0 FROM generate_series(1, 3000) AS x`,
        );
        await tx.query('SELECT pg_stat_force_next_flush()');
      });
      // The plan cached on the empty table is kept as the table grows; nothing but statistics replace it.
      expect(await plan()).toBe(planned);
      let analysed: string[] = [];
      for (let i = 0; i < 50 && !analysed.includes('operations'); i++) {
        analysed = [...analysed, ...(await statistics.check())];
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(analysed).toContain('operations');
      const stats = await db.query<{ relname: string }>(
        "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL AND relname = 'operations'",
      );
      expect(stats).toHaveLength(1);
      expect(await plan()).toContain('operations_key');
    } finally {
      await client.end();
    }
    // Once: a table with statistics is autovacuum's (or the operator's) from then on.
    expect(await statistics.check()).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
