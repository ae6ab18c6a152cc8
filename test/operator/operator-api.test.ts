import { randomUUID } from 'node:crypto';
import type { ShiftableClock } from 'toolgate/server';
import type { TokenSubject } from 'toolgate/testing';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import {
  customerReader,
  type ParcelLedger,
  parcelTools,
  reviewer,
  SECRET_STREET,
  shipArgs,
  shipper,
  UNKNOWN_PARCEL,
  watcher,
} from './parcel-tools.ts';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`the operator API and the audit trail on ${target.dialect}`, () => {
    let location: StoreLocation;
    let gw: TestGateway;
    const ledger: ParcelLedger = { reviews: [] };

    beforeAll(async () => {
      location = await target.create();
      gw = await startTestGateway({
        tools: parcelTools(ledger),
        ...(location.config.databaseUrl ? { databaseUrl: location.config.databaseUrl } : {}),
        app: { backgroundJobs: false },
      });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });

    async function api(who: TokenSubject | null, method: string, path: string, body?: unknown) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (who) headers.authorization = `Bearer ${await gw.tokenFor(who)}`;
      const response = await fetch(new URL(path, gw.origin), {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers field by field
      return { status: response.status, text, body: text ? (JSON.parse(text) as Record<string, any>) : null };
    }

    /** A write whose outcome stays unknown, escalated to review by one reconciler pass. */
    async function parkOperation(tenant = 'acme'): Promise<string> {
      const envelope = await gw.callTool(shipper(tenant), 'parcels_ship', shipArgs(`park-${randomUUID()}`));
      expect(envelope.status).toBe('outcome_unknown');
      (gw.app.clock as ShiftableClock).shift(600_000);
      await gw.app.operations.reconciler.runOnce();
      expect((await gw.operation(envelope.operation_id!))?.status).toBe('needs_review');
      return envelope.operation_id!;
    }

    it('refuses without a token (401), without the scope or actor (403), and hides other tenants (404)', async () => {
      const id = await parkOperation();
      for (const [method, path] of [
        ['GET', '/operator/v1/operations'],
        ['GET', '/operator/v1/audit'],
        ['POST', `/operator/v1/operations/${id}/resolve`],
      ] as const) {
        const refused = await api(null, method, path, method === 'POST' ? {} : undefined);
        expect(refused.status, path).toBe(401);
      }
      expect((await api(customerReader, 'GET', '/operator/v1/operations')).status).toBe(403);
      expect((await api(shipper(), 'GET', '/operator/v1/audit')).status).toBe(403);
      expect((await api(watcher, 'GET', '/operator/v1/operations')).status).toBe(200);
      const noReview = await api(watcher, 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'completed',
        note: 'carrier confirmed by phone',
      });
      expect(noReview.status).toBe(403);
      const stranger = reviewer('globex');
      expect((await api(stranger, 'GET', `/operator/v1/operations/${id}`)).status).toBe(404);
      const foreign = await api(stranger, 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'completed',
        note: 'not mine to decide',
      });
      expect(foreign.status).toBe(404);
      const theirs = await api(stranger, 'GET', '/operator/v1/operations?status=needs_review');
      expect(theirs.body?.operations).toEqual([]);
      expect((await gw.operation(id))?.status).toBe('needs_review');
    });

    it('lists a parked operation with what the operator must know and never the address', async () => {
      const id = await parkOperation();
      const listed = await api(
        watcher,
        'GET',
        '/operator/v1/operations?status=needs_review&tool=parcels_ship',
      );
      expect(listed.status).toBe(200);
      const row = listed.body!.operations.find((o: { operation_id: string }) => o.operation_id === id);
      expect(row).toMatchObject({
        tool: 'parcels_ship',
        contract_version: '1.2.0',
        caller: 'shipper-acme',
        status: 'needs_review',
        reconcile_attempts: 1,
        last_finding: 'carrier has no status query',
        request: { order_id: 'ord_4711', title: 'Birthday present', withheld: ['address'] },
      });
      expect(listed.text).not.toContain(SECRET_STREET);
      expect(listed.text).not.toContain('park-');
      const page = await api(watcher, 'GET', '/operator/v1/operations?limit=1');
      expect(page.body!.operations).toHaveLength(1);
      const next = await api(
        watcher,
        'GET',
        `/operator/v1/operations?limit=1&cursor=${page.body!.next_cursor}`,
      );
      expect(next.body!.operations[0].operation_id > page.body!.operations[0].operation_id).toBe(true);
      expect((await api(watcher, 'GET', '/operator/v1/operations?status=lost')).status).toBe(400);
    });

    it('resolves under the token subject, runs the hook once, replays the same decision and refuses another', async () => {
      const id = await parkOperation();
      const decision = { outcome: 'completed', reference: 'TRK-99', note: 'carrier confirmed pickup' };
      const first = await api(reviewer(), 'POST', `/operator/v1/operations/${id}/resolve`, decision);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        replayed: false,
        hook: 'ran',
        operation: { status: 'completed' },
        decision: { operator: 'reviewer-acme', outcome: 'completed', previous_status: 'needs_review' },
      });
      const again = await api(reviewer(), 'POST', `/operator/v1/operations/${id}/resolve`, decision);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ replayed: true, decision: first.body!.decision });
      const other = await api(reviewer(), 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'rejected',
        note: 'changed my mind',
      });
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({ error: 'conflicting_decision', decision: { outcome: 'completed' } });
      expect(ledger.reviews.filter((r) => r.operationId === id)).toEqual([
        {
          operationId: id,
          decision: { resolution: 'completed', note: 'carrier confirmed pickup', reference: 'TRK-99' },
        },
      ]);
      // The owner sees the decision through operations_get.
      const seen = await gw.callTool(shipper(), 'operations_get', { operation_id: id });
      expect(seen.result).toMatchObject({ status: 'completed' });
      const missingNote = await api(reviewer(), 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'completed',
      });
      expect(missingNote.status).toBe(400);
    });

    it('refuses a decision the tool cannot follow (409 decision_refused) and records nothing', async () => {
      const id = await parkOperation();
      const refused = await api(reviewer(), 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'completed',
        reference: UNKNOWN_PARCEL,
        note: 'carrier confirmed pickup',
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: 'decision_refused', status: 'needs_review' });
      expect(refused.body!.message).toContain(`The carrier knows no parcel ${UNKNOWN_PARCEL}.`);
      expect((await gw.operation(id))?.status).toBe('needs_review');
      expect(
        await gw.app.db.query('SELECT operator FROM operation_reviews WHERE operation_id = ?', [id]),
      ).toEqual([]);
      const audited = await gw.app.operations.audit.list({ tenant: 'acme', operationId: id, limit: 200 });
      expect(audited.filter((e) => e.action === 'operations_review_resolve')).toEqual([]);
      expect(ledger.reviews.filter((r) => r.operationId === id)).toEqual([]);
    });

    it('never lets the requester resolve its own operation (four eyes); another holder of the scope can', async () => {
      const id = await parkOperation();
      const requester = shipper();
      const selfReviewer = { ...requester, scopes: [...requester.scopes, 'operations:review'] };
      const decisionRows = () =>
        gw.app.db.query('SELECT operator FROM operation_reviews WHERE operation_id = ?', [id]);
      const decisionEntries = async () =>
        (await gw.app.operations.audit.list({ tenant: 'acme', operationId: id, limit: 200 })).filter(
          (e) => e.action === 'operations_review_resolve',
        );
      const own = await api(selfReviewer, 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'rejected',
        note: 'it never left, trust me',
      });
      expect(own.status).toBe(403);
      expect(own.body).toMatchObject({ error: 'four_eyes', requester: 'shipper-acme' });
      expect((await gw.operation(id))?.status).toBe('needs_review');
      expect(await decisionRows()).toEqual([]);
      expect(await decisionEntries()).toEqual([]);
      expect(ledger.reviews.filter((r) => r.operationId === id)).toEqual([]);

      const colleague = { ...selfReviewer, sub: 'colleague-acme' };
      const theirs = await api(colleague, 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'rejected',
        note: 'carrier never received it',
      });
      expect(theirs.status).toBe(200);
      expect(theirs.body).toMatchObject({ hook: 'ran', decision: { operator: 'colleague-acme' } });
      expect((await gw.operation(id))?.status).toBe('rejected');
      expect(await decisionRows()).toEqual([{ operator: 'colleague-acme' }]);
      expect((await decisionEntries()).map((e) => e.subject)).toEqual(['colleague-acme']);
      expect(ledger.reviews.filter((r) => r.operationId === id)).toHaveLength(1);
    });

    it('keeps a durable audit trail of calls, reconciliation and decisions, without argument values', async () => {
      const id = await parkOperation();
      await api(reviewer(), 'POST', `/operator/v1/operations/${id}/resolve`, {
        outcome: 'rejected',
        note: 'carrier never received it',
      });
      const trail = await api(watcher, 'GET', `/operator/v1/audit?operation_id=${id}`);
      expect(trail.status).toBe(200);
      const entries = trail.body!.entries as Record<string, unknown>[];
      expect(entries.map((e) => [e.action, e.status, e.subject, e.actor])).toEqual([
        ['parcels_ship', 'outcome_unknown', 'shipper-acme', 'support_agent'],
        ['operations_reconcile', 'needs_review', 'toolgate-reconciler', 'service'],
        ['operations_review_resolve', 'rejected', 'reviewer-acme', 'operator'],
      ]);
      expect(entries[0]).toMatchObject({
        tool: 'parcels_ship',
        contract_version: '1.2.0',
        operation_id: id,
        code: 'OUTCOME_UNKNOWN',
        replayed: false,
      });
      expect(trail.text).not.toContain(SECRET_STREET);
      expect(trail.text).not.toContain('Birthday');
      const bySubject = await api(watcher, 'GET', '/operator/v1/audit?subject=reviewer-acme');
      expect(bySubject.body!.entries.every((e: { subject: string }) => e.subject === 'reviewer-acme')).toBe(
        true,
      );
      const foreign = await api(reviewer('globex'), 'GET', `/operator/v1/audit?operation_id=${id}`);
      expect(foreign.body!.entries).toEqual([]);
      // Stored in the database, whatever the log level (these tests log nothing at all).
      const rows = await gw.app.db.query('SELECT action FROM audit_log WHERE operation_id = ?', [id]);
      expect(rows).toHaveLength(3);
      const detail = await api(watcher, 'GET', `/operator/v1/operations/${id}`);
      expect(detail.body).toMatchObject({
        operation: { status: 'rejected' },
        reviews: [{ operator: 'reviewer-acme', resolution: 'rejected' }],
      });
      expect(detail.body!.audit).toHaveLength(3);
    });

    it('purges audit entries past their retention', async () => {
      const before = await gw.app.db.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM audit_log');
      expect(Number(before[0]!.n)).toBeGreaterThan(0);
      (gw.app.clock as ShiftableClock).shift((gw.app.operations.auditRetentionSeconds + 3_600) * 1000);
      await gw.app.operations.purge();
      const after = await gw.app.db.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM audit_log');
      expect(Number(after[0]!.n)).toBe(0);
    });

    it('measures the settlement backlog and the operator API in /metrics', async () => {
      await parkOperation();
      const metrics = await (await fetch(new URL('/metrics', gw.origin))).text();
      expect(metrics).toMatch(/toolgate_operations_awaiting\{status="needs_review"\} [1-9]/);
      expect(metrics).toMatch(/toolgate_operations_awaiting_oldest_age_seconds\{status="needs_review"\} \d/);
      expect(metrics).toMatch(/toolgate_http_requests_total\{route="\/operator\/v1\/",status="200"\} [1-9]/);
      expect(metrics).toMatch(/toolgate_http_requests_total\{route="\/operator\/v1\/",status="401"\} [1-9]/);
      expect(metrics).toMatch(/toolgate_http_requests_total\{route="\/mcp",status="200"\} [1-9]/);
      expect(metrics).not.toContain('op_');
      const tools = await api(watcher, 'GET', '/operator/v1/tools');
      expect(tools.body!.tools).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'parcels_ship',
            contract_version: '1.2.0',
            calls: expect.objectContaining({ outcome_unknown: expect.any(Number) }),
          }),
        ]),
      );
    });
  });
}
