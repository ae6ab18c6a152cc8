import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refundsModule } from '../refunds-module.ts';

const H = 3_600_000;
const agent = { sub: 'sup.ines', tenant: 'acme', actor: 'support_agent', scopes: ['refunds:write'] } as const;
const finance = { sub: 'fin.okoro', tenant: 'acme', actor: 'operator', scopes: ['refunds:approve'] } as const;
/** The support agent who is also a finance approver: their own grant never lifts their own refunds. */
const agentApprover = { ...agent, scopes: ['refunds:write', 'refunds:approve'] } as const;
const otherTenantFinance = { ...finance, sub: 'fin.lund', tenant: 'globex' } as const;

describe('the refunds example: an exception kind and an approver scope of its own', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ modules: [refundsModule] });
  });
  afterAll(async () => {
    await gw?.close();
  });
  beforeEach(async () => {
    await gw.app.db.execute('DELETE FROM refunds_issued');
    await gw.app.db.execute('DELETE FROM granted_exceptions');
  });

  async function api(who: object | null, method: string, path: string, body?: unknown) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (who) headers.authorization = `Bearer ${await gw.tokenFor(who as typeof finance)}`;
    const response = await fetch(new URL(path, gw.origin), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    // biome-ignore lint/suspicious/noExplicitAny: the tests read arbitrary JSON answers field by field
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
  }
  const now = () => gw.app.clock.now();
  const grantBody = (overrides: Record<string, unknown> = {}) => ({
    kind: 'refund_over_limit',
    target: { customer_id: 'cus_acme_alice' },
    starts_at: new Date(now() - 60_000).toISOString(),
    ends_at: new Date(now() + 8 * H).toISOString(),
    reason: 'Goodwill refund agreed with the account manager',
    ...overrides,
  });
  const refunds = () =>
    gw.app.db.query<{ customer_id: string; amount_cents: number | string; exception_id: string | null }>(
      'SELECT customer_id, amount_cents, exception_id FROM refunds_issued ORDER BY refund_id',
    );
  const grants = () => gw.app.db.query('SELECT exception_id FROM granted_exceptions');
  const refund = (amount: number, key: string) =>
    gw.callTool(agent, 'refunds_issue', {
      customer_id: 'cus_acme_alice',
      amount_cents: amount,
      reason: 'Goodwill refund',
      idempotency_key: key,
    });

  it('declares the kind: listed with its target schema, the grant scope named in the resource metadata', async () => {
    const kinds = await api(finance, 'GET', '/operator/v1/exception-kinds');
    expect(kinds.status).toBe(200);
    expect(kinds.body!.kinds).toEqual([
      expect.objectContaining({
        kind: 'refund_over_limit',
        grant_scope: 'refunds:approve',
        max_duration_seconds: 86_400,
        may_grant: true,
        target: expect.objectContaining({ required: ['customer_id'], additionalProperties: false }),
      }),
    ]);
    const metadata = await (
      await fetch(new URL('/.well-known/oauth-protected-resource/mcp', gw.origin))
    ).json();
    expect(metadata.scopes_supported).toContain('refunds:approve');
  });

  it('above the limit without an exception: rejected, nothing refunded', async () => {
    const answer = await refund(80_000, 'refund-over-limit-0001');
    expect(answer).toMatchObject({ status: 'rejected', code: 'REFUND_OVER_LIMIT' });
    expect(await refunds()).toEqual([]);
  });

  it('a finance approver lifts the limit for one customer; the refund goes ahead under it, audited', async () => {
    const granted = await api(finance, 'POST', '/operator/v1/exceptions', grantBody());
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({
      exception_id: expect.stringMatching(/^exc_[0-9A-Z]{26}$/),
      kind: 'refund_over_limit',
      target: { customer_id: 'cus_acme_alice' },
      granted_by: 'fin.okoro',
      state: 'active',
    });
    const id = granted.body!.exception_id as string;
    const answer = await refund(80_000, 'refund-over-limit-0002');
    expect(answer).toMatchObject({ status: 'completed', result: { amount_cents: 80_000, exception_id: id } });
    expect(await refunds()).toEqual([
      { customer_id: 'cus_acme_alice', amount_cents: expect.anything(), exception_id: id },
    ]);
    const audit = await gw.app.db.query<{
      action: string;
      subject: string;
      operation_id: string | null;
      detail: string;
    }>('SELECT action, subject, operation_id, detail FROM audit_log WHERE operation_id = ? ORDER BY seq', [
      answer.operation_id,
    ]);
    const applied = audit.find((e) => e.action === 'exception_applied');
    expect(applied).toMatchObject({ subject: 'sup.ines' });
    expect(JSON.parse(applied!.detail)).toMatchObject({ exception_id: id, granted_by: 'fin.okoro' });
    const call = audit.find((e) => e.action === 'refunds_issue');
    expect(JSON.parse(call!.detail)).toMatchObject({ exception_id: id, granted_by: 'fin.okoro' });
    // Another customer is not covered.
    const other = await gw.callTool(agent, 'refunds_issue', {
      customer_id: 'cus_acme_bob',
      amount_cents: 80_000,
      reason: 'Goodwill refund',
      idempotency_key: 'refund-over-limit-0003',
    });
    expect(other).toMatchObject({ status: 'rejected', code: 'REFUND_OVER_LIMIT' });
    expect(await refunds()).toHaveLength(1);
  });

  it("the requester's own grant does not count", async () => {
    expect((await api(agentApprover, 'POST', '/operator/v1/exceptions', grantBody())).status).toBe(201);
    const answer = await gw.callTool(agentApprover, 'refunds_issue', {
      customer_id: 'cus_acme_alice',
      amount_cents: 80_000,
      reason: 'Goodwill refund',
      idempotency_key: 'refund-over-limit-0004',
    });
    expect(answer).toMatchObject({ status: 'rejected', code: 'REFUND_OVER_LIMIT' });
    expect(await refunds()).toEqual([]);
  });

  it('a revoked exception no longer lifts the limit', async () => {
    const granted = await api(finance, 'POST', '/operator/v1/exceptions', grantBody());
    const revoked = await api(finance, 'DELETE', `/operator/v1/exceptions/${granted.body!.exception_id}`);
    expect(revoked.body).toMatchObject({ state: 'revoked', revoked_by: 'fin.okoro' });
    expect(await refund(80_000, 'refund-over-limit-0005')).toMatchObject({ code: 'REFUND_OVER_LIMIT' });
    expect(await refunds()).toEqual([]);
  });

  it('bad bodies get one field error per problem, a missing scope 403, and nothing is stored', async () => {
    const cases: [object, unknown, number, string[]][] = [
      [finance, grantBody({ kind: 'refund_forever' }), 400, ['kind']],
      [
        finance,
        grantBody({ target: { customer_id: 'alice', tier: 'gold' } }),
        400,
        ['target.customer_id', 'target.tier'],
      ],
      [finance, grantBody({ target: {} }), 400, ['target.customer_id']],
      [finance, grantBody({ ends_at: new Date(now() + 30 * H).toISOString() }), 400, ['ends_at']],
      [
        finance,
        grantBody({
          starts_at: new Date(now() - 3 * H).toISOString(),
          ends_at: new Date(now() - H).toISOString(),
        }),
        400,
        ['ends_at'],
      ],
      [finance, grantBody({ reason: 'ok' }), 400, ['reason']],
      [agent, grantBody(), 403, []],
    ];
    for (const [who, body, status, parameters] of cases) {
      const answer = await api(who, 'POST', '/operator/v1/exceptions', body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      if (status === 400) {
        expect(answer.body!.problems.map((p: { parameter: string }) => p.parameter).sort()).toEqual(
          parameters,
        );
      } else expect(answer.body!.message).toContain('refunds:approve');
    }
    const unknownKind = await api(
      finance,
      'POST',
      '/operator/v1/exceptions',
      grantBody({ kind: 'refund_forever' }),
    );
    expect(unknownKind.body!.problems[0].message).toBe('must be one of refund_over_limit');
    expect(await grants()).toEqual([]);
  });

  it('lists by kind and state, in the tenant only', async () => {
    const granted = (await api(finance, 'POST', '/operator/v1/exceptions', grantBody())).body!;
    const listed = await api(finance, 'GET', '/operator/v1/exceptions?kind=refund_over_limit&active=true');
    expect(listed.body!.exceptions.map((e: { exception_id: string }) => e.exception_id)).toEqual([
      granted.exception_id,
    ]);
    expect((await api(finance, 'GET', '/operator/v1/exceptions?kind=maintenance_window')).status).toBe(400);
    expect((await api(otherTenantFinance, 'GET', '/operator/v1/exceptions')).body).toEqual({
      exceptions: [],
    });
    expect((await api(agent, 'GET', '/operator/v1/exceptions')).status).toBe(403);
  });
});
