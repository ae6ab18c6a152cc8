import type { OutcomeEnvelope } from 'toolgate';
import type { TokenSubject } from 'toolgate/testing';
import { confirmingClient } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';
import { formatAtOffset } from '../../src/changes/rfc3339.ts';
import { productionRequest } from '../changes/changes-harness.ts';

const H = 3_600_000;
const otherTenantApprover: TokenSubject = {
  sub: 'appr.novak',
  tenant: 'globex',
  actor: 'operator',
  scopes: ['changes:approve'],
};

/**
 * The exceptions routes of the operator API: who may grant, list and revoke, what a grant request must
 * be, and what each answer leaves in the store and the audit trail.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`operator exceptions API on ${target.dialect}`, () => {
    const suite = gatewayOnStore(target, { modules: [changesDomain] });

    async function api(who: string | TokenSubject | null, method: string, path: string, body?: unknown) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (who) headers.authorization = `Bearer ${await suite.gw.tokenFor(who)}`;
      const response = await fetch(new URL(path, suite.gw.origin), {
        method,
        headers,
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers field by field
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
    }

    const now = () => suite.gw.app.clock.now();
    const grantBody = (overrides: Record<string, unknown> = {}) => ({
      kind: 'maintenance_window',
      service_id: 'payments-api',
      environment: 'production',
      starts_at: new Date(now() + H).toISOString(),
      ends_at: new Date(now() + 4 * H).toISOString(),
      reason: 'Card network certificate rotation agreed with the vendor',
      ...overrides,
    });
    const stored = () =>
      suite.gw.app.db.query<{ exception_id: string; tenant: string; revoked_by: string | null }>(
        'SELECT exception_id, tenant, revoked_by FROM granted_exceptions ORDER BY exception_id',
      );
    const audited = () =>
      suite.gw.app.db.query<{ action: string; subject: string; tenant: string; detail: string }>(
        "SELECT action, subject, tenant, detail FROM audit_log WHERE action LIKE 'exception_%' ORDER BY seq",
      );

    it('refuses without a token (401) and without changes:approve (403); nothing is stored', async () => {
      const id = 'exc_01KBA000000000000000000000';
      for (const [method, path] of [
        ['GET', '/operator/v1/exceptions'],
        ['POST', '/operator/v1/exceptions'],
        ['DELETE', `/operator/v1/exceptions/${id}`],
      ] as const) {
        const body = method === 'POST' ? grantBody() : undefined;
        expect((await api(null, method, path, body)).status, `${method} ${path}`).toBe(401);
        const engineer = await api('changes_engineer', method, path, body);
        expect(engineer.status, `${method} ${path}`).toBe(403);
        expect(engineer.body).toMatchObject({ error: 'forbidden' });
        expect(engineer.body!.message).toContain('changes:approve');
      }
      expect(await stored()).toEqual([]);
      expect(await audited()).toEqual([]);
    });

    it('grants: 201 with the stored record under the approver, and an audit entry', async () => {
      const body = grantBody();
      const granted = await api('changes_approver', 'POST', '/operator/v1/exceptions', body);
      expect(granted.status).toBe(201);
      expect(granted.body).toMatchObject({
        exception_id: expect.stringMatching(/^exc_[0-9A-Z]{26}$/),
        kind: 'maintenance_window',
        service_id: 'payments-api',
        environment: 'production',
        starts_at: body.starts_at,
        ends_at: body.ends_at,
        reason: body.reason,
        granted_by: 'appr.chen',
        granted_at: expect.any(String),
        revoked_by: null,
        revoked_at: null,
        state: 'scheduled',
      });
      const id = granted.body!.exception_id as string;
      expect(await stored()).toEqual([{ exception_id: id, tenant: 'acme', revoked_by: null }]);
      const entries = await audited();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action: 'exception_grant', subject: 'appr.chen', tenant: 'acme' });
      expect(JSON.parse(entries[0]!.detail)).toMatchObject({ exception_id: id, service_id: 'payments-api' });
      // The audit API shows it to whoever reads the operator plane (here the approver, an operator).
      const rows = await api('changes_approver', 'GET', '/operator/v1/audit?subject=appr.chen');
      expect(rows.body!.entries.map((e: { action: string }) => e.action)).toEqual(['exception_grant']);
    });

    it('answers a bad request 400 naming each problem, and stores nothing', async () => {
      const cases: [unknown, string][] = [
        [{ ...grantBody(), approved: true }, 'approved'],
        [grantBody({ starts_at: '2026-13-01 02:00' }), 'starts_at'],
        [grantBody({ ends_at: '2099-01-01T00:00:00' }), 'ends_at'],
        [grantBody({ ends_at: new Date(now() + 0.5 * H).toISOString() }), 'ends_at'],
        [grantBody({ ends_at: new Date(now() + 100 * H).toISOString() }), 'ends_at'],
        [
          grantBody({
            starts_at: new Date(now() - 3 * H).toISOString(),
            ends_at: new Date(now() - H).toISOString(),
          }),
          'ends_at',
        ],
        [grantBody({ kind: 'change_freeze' }), 'kind'],
        [grantBody({ environment: 'moon' }), 'environment'],
        [grantBody({ reason: 'because' }), 'reason'],
        [{ kind: 'maintenance_window' }, 'service_id'],
        [[grantBody()], 'body'],
      ];
      for (const [body, parameter] of cases) {
        const answer = await api('changes_approver', 'POST', '/operator/v1/exceptions', body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body!.error).toBe('invalid_request');
        expect(answer.body!.problems.map((p: { parameter: string }) => p.parameter)).toContain(parameter);
      }
      const notJson = await api('changes_approver', 'POST', '/operator/v1/exceptions', '{"kind":');
      expect(notJson.status).toBe(400);
      expect(await stored()).toEqual([]);
      expect(await audited()).toEqual([]);
    });

    it("answers an unknown service, or another tenant's, 404 like any other tenant's resource", async () => {
      const unknown = await api(
        'changes_approver',
        'POST',
        '/operator/v1/exceptions',
        grantBody({ service_id: 'no-such-service' }),
      );
      expect(unknown).toEqual({ status: 404, body: { error: 'not_found' } });
      // payments-api is acme's: globex's approver cannot tell it from a missing one.
      const foreign = await api(otherTenantApprover, 'POST', '/operator/v1/exceptions', grantBody());
      expect(foreign).toEqual({ status: 404, body: { error: 'not_found' } });
      expect(await stored()).toEqual([]);
    });

    it('lists the tenant own exceptions, active and past; revokes them, keeping the row', async () => {
      const first = (await api('changes_approver', 'POST', '/operator/v1/exceptions', grantBody())).body!;
      const second = (
        await api(
          'changes_approver',
          'POST',
          '/operator/v1/exceptions',
          grantBody({ service_id: 'checkout-web', starts_at: new Date(now() - H).toISOString() }),
        )
      ).body!;
      const foreign = await api(otherTenantApprover, 'GET', '/operator/v1/exceptions');
      expect(foreign).toEqual({ status: 200, body: { exceptions: [] } });
      const revokeForeign = await api(
        otherTenantApprover,
        'DELETE',
        `/operator/v1/exceptions/${first.exception_id}`,
      );
      expect(revokeForeign).toEqual({ status: 404, body: { error: 'not_found' } });

      const revoked = await api(
        'changes_approver',
        'DELETE',
        `/operator/v1/exceptions/${first.exception_id}`,
      );
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({
        exception_id: first.exception_id,
        revoked_by: 'appr.chen',
        revoked_at: expect.any(String),
        state: 'revoked',
      });
      const again = await api('changes_approver', 'DELETE', `/operator/v1/exceptions/${first.exception_id}`);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: 'already_revoked' });

      const all = await api('changes_approver', 'GET', '/operator/v1/exceptions');
      expect(
        all.body!.exceptions.map((e: { exception_id: string; state: string }) => [e.exception_id, e.state]),
      ).toEqual([
        [second.exception_id, 'active'],
        [first.exception_id, 'revoked'],
      ]);
      const active = await api('changes_approver', 'GET', '/operator/v1/exceptions?active=true');
      expect(active.body!.exceptions.map((e: { exception_id: string }) => e.exception_id)).toEqual([
        second.exception_id,
      ]);
      expect((await api('changes_approver', 'GET', '/operator/v1/exceptions?active=yes')).status).toBe(400);
      expect(await stored()).toHaveLength(2);
      expect((await audited()).map((e) => e.action)).toEqual([
        'exception_grant',
        'exception_grant',
        'exception_revoke',
      ]);
    });

    it('over the wire: a change outside its window is created under the granted exception, named in its audit', async () => {
      const request = productionRequest(suite.gw.app, { dry_run: false });
      const startAt = Date.parse(String(request.start_time)) - 30 * 60_000 + 5 * H;
      const args = { ...request, start_time: formatAtOffset(startAt, -300) };
      const granted = await api(
        'changes_approver',
        'POST',
        '/operator/v1/exceptions',
        grantBody({
          starts_at: new Date(startAt - H).toISOString(),
          ends_at: new Date(startAt + H).toISOString(),
        }),
      );
      expect(granted.status).toBe(201);
      const token = await suite.gw.tokenFor('changes_engineer');
      const { client, asked } = await confirmingClient(suite.gw.url, token, [{ action: 'accept' }]);
      const answer = (await client.callTool({ name: 'change_create', arguments: args }))
        .structuredContent as unknown as OutcomeEnvelope;
      await client.close();
      expect(asked[0]!.message).toContain(
        `under exception ${granted.body!.exception_id} granted by appr.chen`,
      );
      expect(answer).toMatchObject({
        status: 'completed',
        result: {
          maintenance_exception: { exception_id: granted.body!.exception_id, granted_by: 'appr.chen' },
        },
      });
      const reviewer: TokenSubject = {
        sub: 'ops.lee',
        tenant: 'acme',
        actor: 'operator',
        scopes: ['operations:review'],
      };
      const trail = await api(reviewer, 'GET', `/operator/v1/audit?operation_id=${answer.operation_id}`);
      const applied = trail.body!.entries.find((e: { action: string }) => e.action === 'exception_applied');
      expect(applied).toMatchObject({
        subject: 'eng.rivera',
        operation_id: answer.operation_id,
        detail: { exception_id: granted.body!.exception_id, granted_by: 'appr.chen' },
      });
    });
  });
}
