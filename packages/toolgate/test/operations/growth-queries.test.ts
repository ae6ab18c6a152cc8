import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../../test/operations/harness.ts';
import { seedStore } from '../../../../test/support/seed-store.ts';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import type { App } from '../../src/app/create-app.ts';
import { newOperationId } from '../../src/operations/operation-id.ts';
import { PURGE_BATCH_ROWS } from '../../src/operations/retention.ts';
import { listOperations } from '../../src/operator/operation-listing.ts';

const DAY = 86_400_000;
const TERMINAL = "status IN ('completed', 'submitted', 'rejected', 'requires_confirmation', 'failed')";

async function count(app: App, sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await app.db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${sql}`, params);
  return Number(row!.n);
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`a grown store on ${target.dialect}`, () => {
    let location: StoreLocation;
    let app: App;
    const now = Date.now();

    beforeAll(async () => {
      location = await target.create();
      app = await startTestApp(location.config);
      // Rows past both retentions (operations 1 day, audit 90 days), more than several purge batches.
      await seedStore(app.db, {
        operations: 4 * PURGE_BATCH_ROWS + 37,
        tenants: ['tenant-a', 'tenant-b'],
        tool: 'testing_credit_account',
        now: now - 100 * DAY,
        spanMs: DAY,
        retentionMs: DAY,
      });
      // Rows of the last ten days, kept by the purge.
      await seedStore(app.db, {
        operations: 3_000,
        first: 10_000,
        tenants: ['tenant-a', 'tenant-b'],
        tool: 'testing_credit_account',
        now,
        spanMs: 10 * DAY,
        retentionMs: 30 * DAY,
      });
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
    });

    it('seeds ids whose time part is their creation time, as the gateway writes them', async () => {
      const rows = await app.db.query<{ id: string; created_at: unknown }>(
        'SELECT id, created_at FROM operations WHERE tenant = ? ORDER BY id LIMIT 500',
        ['tenant-b'],
      );
      for (const row of rows)
        expect(row.id.slice(0, 13)).toBe(newOperationId(Number(row.created_at)).slice(0, 13));
    });

    it('lists by since exactly the operations created at or after it, oldest first', async () => {
      const since = now - 3 * DAY + 12_345;
      const expected = await app.db.query<{ id: string }>(
        'SELECT id FROM operations WHERE tenant = ? AND created_at >= ? ORDER BY id LIMIT 200',
        ['tenant-a', since],
      );
      expect(expected.length).toBe(200);
      const listed = await listOperations(app.db, 'tenant-a', { since, limit: 200 });
      expect(listed.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      const next = await listOperations(app.db, 'tenant-a', { since, limit: 5, afterId: listed.at(-1)!.id });
      expect(next.every((r) => Number(r.created_at) >= since && r.id > listed.at(-1)!.id)).toBe(true);
    });

    it('purges every expired settled row in batches and keeps the rest', async () => {
      const expired = await count(app, `operations WHERE expires_at <= ? AND ${TERMINAL}`, [now]);
      const owed = await count(app, `operations WHERE expires_at <= ? AND NOT ${TERMINAL}`, [now]);
      const fresh = await count(app, 'operations WHERE expires_at > ?', [now]);
      const freshAudit = await count(app, 'audit_log WHERE at >= ?', [now - 90 * DAY]);
      expect(expired).toBeGreaterThan(3 * PURGE_BATCH_ROWS);
      expect(await app.operations.purge()).toBe(expired);
      expect(await count(app, 'operations')).toBe(owed + fresh);
      expect(await count(app, 'audit_log WHERE at < ?', [now - 90 * DAY])).toBe(0);
      expect(await count(app, 'audit_log')).toBe(freshAudit);
    });
  });
}
