import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import { FRAMEWORK_MIGRATIONS } from '../../src/operations/framework-parts.ts';
import { OperationStore, type ReservationRequest } from '../../src/operations/operation-store.ts';
import { RESERVE_MANY } from '../../src/operations/reservation-batch.ts';
import { runMigrations } from '../../src/store/migrations.ts';
import { openDatabase } from '../../src/store/open-database.ts';
import type { SqlDatabase } from '../../src/store/sql-database.ts';

/**
 * Writes issued at once by many deliveries: on PostgreSQL those that arrive while a statement is out go
 * together as the next one (reservation-batch.ts, SharedStatements); each still decides, commits and
 * fails as its own. The same behaviour holds on SQLite, which commits a turn's writes together itself.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`writes of many deliveries at once (${target.dialect})`, () => {
    let location: StoreLocation;
    let db: SqlDatabase;
    let store: OperationStore;
    beforeAll(async () => {
      location = await target.create();
      db = await openDatabase(location.config);
      await runMigrations(db, FRAMEWORK_MIGRATIONS);
      store = new OperationStore(db);
      await db.execute('CREATE TABLE st_lead (id TEXT PRIMARY KEY, state TEXT NOT NULL)');
      await db.execute('CREATE TABLE st_note (id TEXT NOT NULL, text TEXT NOT NULL)');
    });
    afterAll(async () => {
      await db?.close();
      await location?.dispose();
    });

    const now = Date.now();
    const request = (id: string, key: string): ReservationRequest => ({
      id,
      tenant: 't1',
      subject: 'alice',
      key,
      tool: 'notes_add',
      contractVersion: '1',
      fingerprint: `fp-${key}`,
      contentHash: null,
      mode: 'execute',
      correlationId: `c-${id}`,
      expiresAt: now + 60_000,
      now,
      leaseExpiresAt: now + 5_000,
    });
    const keysStored = async (prefix: string) =>
      (
        await db.query<{ idem_key: string; id: string }>(
          'SELECT idem_key, id FROM operations WHERE idem_key LIKE ? ORDER BY idem_key',
          [`${prefix}%`],
        )
      ).map((r) => `${r.idem_key}=${r.id}`);

    /** How many statements `db` was sent while `work` ran. */
    async function statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
      const spy = vi.spyOn(db, 'query');
      try {
        const result = await work();
        return { result, statements: spy.mock.calls.length };
      } finally {
        spy.mockRestore();
      }
    }

    it('reserves each free key once and reports the record holding a taken one, on PostgreSQL in fewer statements than requests', async () => {
      await store.reserveOrFind(request('op-r-held', 'r-held'));
      const { result: values, statements } = await statementsDuring(() =>
        Promise.all([
          ...Array.from({ length: 8 }, (_, i) => store.reserveOrFind(request(`op-r-${i}`, `r-${i}`))),
          // The same key as the first of them, from another delivery.
          store.reserveOrFind(request('op-r-0-again', 'r-0')),
          // A key another record already holds.
          store.reserveOrFind(request('op-r-late', 'r-held')),
        ]),
      );
      for (let i = 0; i < 8; i++) expect(values[i], `r-${i}`).toEqual({ reserved: true });
      const again = values[8];
      // The second delivery of r-0 did not reserve; it found the record or is told to look again.
      expect(again?.reserved).toBe(false);
      if (again && !again.reserved && again.existing) expect(again.existing.id).toBe('op-r-0');
      const late = values[9];
      expect(late && !late.reserved ? late.existing?.id : null).toBe('op-r-held');
      // One statement for the first, one for those that arrived while it was out, one for r-0 again.
      if (db.dialect === 'postgres') expect(statements).toBeLessThanOrEqual(3);
      expect(await keysStored('r-')).toEqual([
        ...Array.from({ length: 8 }, (_, i) => `r-${i}=op-r-${i}`),
        'r-held=op-r-held',
      ]);
    });

    it.runIf(target.dialect === 'postgres')(
      'looks each record up by its key, never reading the whole table, even before the table has statistics',
      async () => {
        // A new database: autovacuum has not analyzed operations yet, which is when a join chose to scan it.
        const arrays = [
          ['op-x-1', 'op-x-2'],
          ['t1', 't1'],
          ['alice', 'alice'],
          ['x-1', 'x-2'],
          ['notes_add', 'notes_add'],
          ['1', '1'],
          ['fp', 'fp'],
          [null, null],
          ['execute', 'execute'],
          [now, now],
          [now, now],
          ['c', 'c'],
          [now, now],
          [now, now],
          [now, now],
          [null, null],
        ];
        const plans = await db.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT JSON) ${RESERVE_MANY}`,
          arrays,
        );
        const text = JSON.stringify(plans);
        expect(text).toContain('operations_key');
        expect(text).not.toMatch(/"Node Type":"Seq Scan","[^}]*"Relation Name":"operations"/);
        expect(await keysStored('x-')).toEqual([]);
      },
    );

    it('fails only the reservation the database refuses among those sent together', async () => {
      const answers = await Promise.allSettled([
        store.reserveOrFind(request('op-s-0', 's-0')),
        store.reserveOrFind(request('op-s-1', 's-1')),
        // An id another record already has: the database refuses this one row.
        store.reserveOrFind(request('op-s-0', 's-clash')),
        store.reserveOrFind(request('op-s-2', 's-2')),
      ]);
      expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(await keysStored('s-')).toEqual(['s-0=op-s-0', 's-1=op-s-1', 's-2=op-s-2']);
    });

    const settle = (id: string) => ({
      sql: "UPDATE st_lead SET state = state || '+' WHERE id = ?",
      params: [id],
      row: `st_lead:${id}`,
    });
    const note = (id: string, text: string | null) => ({
      sql: 'INSERT INTO st_note (id, text) VALUES (?, ?)',
      params: [id, text],
    });
    const stateOf = async (id: string) =>
      (await db.query<{ state: string }>('SELECT state FROM st_lead WHERE id = ?', [id]))[0]?.state;
    const notesOf = async (id: string) =>
      (await db.query<{ text: string }>('SELECT text FROM st_note WHERE id = ?', [id])).map((r) => r.text);

    it('commits each group of writes whole, and a group the database refuses fails alone', async () => {
      const ids = ['g0', 'g1', 'g2', 'g3', 'g4', 'g5'];
      for (const id of ids) await db.execute("INSERT INTO st_lead (id, state) VALUES (?, 'open')", [id]);
      const answers = await Promise.allSettled(
        ids.map((id) =>
          db.writeTogether(settle(id), async (tx) => {
            // g3's note breaks NOT NULL: its lead must stay unwritten, the others must commit.
            const write = note(id, id === 'g3' ? null : `note ${id}`);
            await tx.execute(write.sql, write.params);
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      for (const id of ids.filter((i) => i !== 'g3')) {
        expect(await stateOf(id), id).toBe('open+');
        expect(await notesOf(id), id).toEqual([`note ${id}`]);
      }
      expect(await stateOf('g3')).toBe('open');
      expect(await notesOf('g3')).toEqual([]);
    });

    it('commits groups of different rows together, on PostgreSQL in fewer statements than groups', async () => {
      const ids = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5'];
      for (const id of ids) await db.execute("INSERT INTO st_lead (id, state) VALUES (?, 'open')", [id]);
      const { result: changed, statements } = await statementsDuring(() =>
        Promise.all(
          ids.map((id) =>
            db.writeTogether(settle(id), async (tx) => {
              const write = note(id, `note ${id}`);
              await tx.execute(write.sql, write.params);
            }),
          ),
        ),
      );
      expect(changed).toEqual([1, 1, 1, 1, 1, 1]);
      if (db.dialect === 'postgres') expect(statements).toBeLessThanOrEqual(2);
      for (const id of ids) {
        expect(await stateOf(id), id).toBe('open+');
        expect(await notesOf(id), id).toEqual([`note ${id}`]);
      }
    });

    it('applies two groups that change the same row one after the other, never one for both', async () => {
      await db.execute("INSERT INTO st_lead (id, state) VALUES ('same', 'open')");
      const changed = await Promise.all(
        ['first', 'second', 'third'].map((text) =>
          db.writeTogether(settle('same'), async (tx) => {
            const write = note('same', text);
            await tx.execute(write.sql, write.params);
          }),
        ),
      );
      expect(changed).toEqual([1, 1, 1]);
      expect(await stateOf('same')).toBe('open+++');
      expect((await notesOf('same')).sort()).toEqual(['first', 'second', 'third']);
    });
  });
}
