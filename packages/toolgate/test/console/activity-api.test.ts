import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerReader,
  type ParcelLedger,
  parcelTools,
  reviewer,
  shipArgs,
  shipper,
  watcher,
} from '../../../../test/operator/parcel-tools.ts';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import { ACTIVITY_BUCKETS, ACTIVITY_SLOT_MS } from '../../src/operator/activity-history.ts';
import { startTestGateway, type TestGateway } from '../../src/testing/test-gateway.ts';

const HOUR = 3_600_000;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`the operator activity history on ${target.dialect}`, () => {
    let location: StoreLocation;
    let gw: TestGateway;
    const ledger: ParcelLedger = { reviews: [] };

    beforeAll(async () => {
      location = await target.create();
      gw = await startTestGateway({
        tools: parcelTools(ledger),
        ...(location.config.databaseUrl ? { databaseUrl: location.config.databaseUrl } : {}),
        app: { backgroundJobs: false, operations: { reconcileBackoffMs: 0 } },
      });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });

    async function activity(who: TokenSubject | null, query = '') {
      const headers: Record<string, string> = who
        ? { authorization: `Bearer ${await gw.tokenFor(who)}` }
        : {};
      const response = await fetch(new URL(`/operator/v1/activity${query}`, gw.origin), { headers });
      // biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answer field by field
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    }

    /** Audit entries of one operation written at the given times before now (hours), as the trail holds them. */
    async function history(tenant: string, steps: [hoursAgo: number, status: string][]): Promise<void> {
      const operationId = `op_${randomUUID().replaceAll('-', '').slice(0, 26).toUpperCase()}`;
      for (const [hoursAgo, status] of steps) {
        await gw.app.operations.audit.record({
          at: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
          correlationId: randomUUID(),
          tenant,
          subject: 'toolgate-reconciler',
          actor: 'service',
          action: 'operations_reconcile',
          status,
          code: null,
          operationId,
          replayed: false,
          tool: 'parcels_ship',
          contractVersion: '1.2.0',
          detail: {},
        });
      }
    }

    it('draws an operation in the backlog from when its outcome became unknown until its decision', async () => {
      await history('history', [
        [5.5, 'outcome_unknown'],
        [3.5, 'needs_review'],
        [1.5, 'completed'],
      ]);
      await history('history', [[2.5, 'needs_review']]);
      const { status, body } = await activity({ ...watcher, tenant: 'history' }, '?hours=8');
      expect(status).toBe(200);
      expect(body.bucket_seconds).toBe((8 * 3600) / ACTIVITY_BUCKETS);
      expect(body.backlog).toHaveLength(ACTIVITY_BUCKETS);
      const at = (hoursAgo: number) => {
        const instant = Date.now() - hoursAgo * HOUR;
        return body.backlog.find((p: { at: string }) => Date.parse(p.at) >= instant);
      };
      expect(at(6)).toMatchObject({ outcome_unknown: 0, needs_review: 0 });
      expect(at(4.5)).toMatchObject({ outcome_unknown: 1, needs_review: 0 });
      expect(at(3)).toMatchObject({ outcome_unknown: 0, needs_review: 1 });
      expect(at(2)).toMatchObject({ outcome_unknown: 0, needs_review: 2 });
      expect(body.backlog.at(-1)).toMatchObject({ outcome_unknown: 0, needs_review: 1 });
      // A shorter window starts with the backlog as it stood then: the first operation, settled inside
      // it. (The second, never settled, is not in the operations table here; a real one would be.)
      const recent = await activity({ ...watcher, tenant: 'history' }, '?hours=2');
      expect(recent.body.backlog[0]).toMatchObject({ outcome_unknown: 0, needs_review: 1 });
      expect(recent.body.backlog.at(-1)).toMatchObject({ outcome_unknown: 0, needs_review: 0 });
      // Reconciler steps are not calls.
      expect(body.calls.every((b: { counts: object }) => Object.keys(b.counts).length === 0)).toBe(true);
    });

    it("counts the tenant's calls by status and its live backlog, never another tenant's", async () => {
      const before = await activity(watcher);
      expect(before.body.backlog.at(-1)).toMatchObject({ needs_review: 0, outcome_unknown: 0 });

      const parked = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`chart-${randomUUID()}`));
      expect(parked.status).toBe('outcome_unknown');
      const unknown = await activity(watcher);
      expect(unknown.body.backlog.at(-1)).toMatchObject({ outcome_unknown: 1, needs_review: 0 });
      await gw.app.operations.reconciler.runOnce();
      expect((await gw.operation(parked.operation_id!))?.status).toBe('needs_review');
      const forbidden = await gw.callTool(customerReader, 'parcels_peek', { parcel_id: 'p-1' });
      expect(forbidden.code).toBe('FORBIDDEN');
      await gw.callTool(shipper('globex'), 'parcels_ship', shipArgs(`other-${randomUUID()}`));

      const { status, body } = await activity(watcher);
      expect(status).toBe(200);
      expect(body.calls).toHaveLength(ACTIVITY_BUCKETS);
      expect(body.calls.at(-1).counts).toEqual({ outcome_unknown: 1, failed: 1 });
      expect(body.backlog.at(-1)).toMatchObject({ outcome_unknown: 0, needs_review: 1 });
      expect(body.backlog.at(-2)).toMatchObject({ outcome_unknown: 0, needs_review: 0 });
      const globex = await activity({ ...watcher, tenant: 'globex' });
      expect(globex.body.calls.at(-1).counts).toEqual({ outcome_unknown: 1 });

      const resolved = await fetch(
        new URL(`/operator/v1/operations/${parked.operation_id}/resolve`, gw.origin),
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${await gw.tokenFor(reviewer())}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ outcome: 'rejected', note: 'The carrier has no such parcel' }),
        },
      );
      expect(resolved.status).toBe(200);
      expect((await activity(watcher)).body.backlog.at(-1)).toMatchObject({ needs_review: 0 });
    });

    it('counts an operation that has been in the backlog since before the window in every point of it', async () => {
      const parked = await gw.callTool(shipper('steady'), 'parcels_ship', shipArgs(`steady-${randomUUID()}`));
      expect(parked.status).toBe('outcome_unknown');
      // Its outcome became unknown 30 hours ago; nothing has happened to it since.
      await gw.app.db.execute('UPDATE audit_log SET at = ? WHERE operation_id = ?', [
        Date.now() - 30 * HOUR,
        parked.operation_id,
      ]);
      const { body } = await activity({ ...watcher, tenant: 'steady' });
      expect(body.backlog).toHaveLength(ACTIVITY_BUCKETS);
      for (const point of body.backlog) expect(point).toMatchObject({ outcome_unknown: 1, needs_review: 0 });
    });

    it('keeps the counts of closed slots, reads them as kept, and drops slots older than any window', async () => {
      const tenant = 'kept';
      const call = (hoursAgo: number, status: string) =>
        gw.app.operations.audit.record({
          at: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
          correlationId: randomUUID(),
          tenant,
          subject: 'agent-1',
          actor: 'service',
          action: 'parcels_ship',
          status,
          code: null,
          operationId: null,
          replayed: false,
          tool: 'parcels_ship',
          contractVersion: '1.2.0',
          detail: {},
        });
      for (const [hoursAgo, status] of [
        [20, 'completed'],
        [20, 'completed'],
        [3, 'failed'],
        [0.5, 'completed'],
      ] as const)
        await call(hoursAgo, status);
      // A slot kept before, older than the longest window: dropped when new slots are kept.
      await gw.app.db.execute('INSERT INTO activity_slots (tenant, slot_start, counts) VALUES (?, ?, ?)', [
        tenant,
        Math.floor((Date.now() - 80 * HOUR) / ACTIVITY_SLOT_MS) * ACTIVITY_SLOT_MS,
        '{"completed":9}',
      ]);
      const totals = (body: Record<string, unknown>) => {
        const sum: Record<string, number> = {};
        for (const bucket of body.calls as { counts: Record<string, number> }[])
          for (const [status, n] of Object.entries(bucket.counts)) sum[status] = (sum[status] ?? 0) + n;
        return sum;
      };
      const first = await activity({ ...watcher, tenant });
      expect(totals(first.body)).toEqual({ completed: 3, failed: 1 });
      const hourOf = (hoursAgo: number) =>
        first.body.calls.findIndex((b: { from: string; to: string }) => {
          const instant = Date.now() - hoursAgo * HOUR;
          return Date.parse(b.from) <= instant && instant < Date.parse(b.to);
        });
      expect(first.body.calls[hourOf(20)].counts).toEqual({ completed: 2 });
      expect(first.body.calls[hourOf(3)].counts).toEqual({ failed: 1 });

      // Every closed slot of the window is kept once, quiet ones as {}; the old one is gone.
      // They are kept just after the answer (the old slot dropped last).
      const keptRows = () =>
        gw.app.db.query<{ slot_start: unknown; counts: string }>(
          'SELECT slot_start, counts FROM activity_slots WHERE tenant = ? ORDER BY slot_start',
          [tenant],
        );
      const from = Date.parse(first.body.from);
      // Closed: ended two minutes or more ago (the window's last bucket may reach past now).
      const closedSlots = (Date.now() - 120_000 - from) / ACTIVITY_SLOT_MS;
      await expect
        .poll(async () => {
          const rows = await keptRows();
          return Number(rows[0]?.slot_start) === from && rows.length >= Math.floor(closedSlots) - 1;
        })
        .toBe(true);
      const kept = await keptRows();
      expect(kept.length).toBeLessThanOrEqual(Math.ceil(closedSlots));
      const keptTotals: Record<string, number> = {};
      for (const row of kept)
        for (const [status, n] of Object.entries(JSON.parse(row.counts) as Record<string, number>))
          keptTotals[status] = (keptTotals[status] ?? 0) + n;
      expect(keptTotals).toEqual({ completed: 3, failed: 1 });

      // A later read takes closed slots as kept: entries gone from the trail (a purge) still count there.
      await gw.app.db.execute('DELETE FROM audit_log WHERE tenant = ?', [tenant]);
      const again = await activity({ ...watcher, tenant });
      expect(totals(again.body)).toEqual({ completed: 3, failed: 1 });
      const after = await gw.app.db.query('SELECT slot_start FROM activity_slots WHERE tenant = ?', [tenant]);
      expect(after.length).toBeGreaterThanOrEqual(kept.length);
      expect(after.length).toBeLessThanOrEqual(kept.length + 1);
    });

    it('refuses a bad window, a token without operator reading rights, and no token, reading nothing', async () => {
      for (const query of ['?hours=0', '?hours=73', '?hours=2.5', '?hours=lots']) {
        const bad = await activity(watcher, query);
        expect(bad.status, query).toBe(400);
        expect(bad.body).toEqual({
          error: 'invalid_request',
          problems: [{ parameter: 'hours', message: 'must be a whole number from 1 to 72' }],
        });
      }
      expect((await activity(customerReader)).status).toBe(403);
      expect((await activity(null)).status).toBe(401);
    });
  });
}
