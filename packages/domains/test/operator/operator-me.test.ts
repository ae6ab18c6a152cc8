import { simulationExtension } from '@toolgate/simulation';
import type { TokenSubject } from 'toolgate/testing';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesDomain } from '../../src/changes/changes-module.ts';

const everything: TokenSubject = {
  sub: 'ops.lee',
  tenant: 'acme',
  actor: 'operator',
  scopes: ['operations:read', 'operations:review', 'operations:confirm', 'changes:approve', 'parcels:write'],
};
const approverOnly: TokenSubject = {
  sub: 'appr.kim',
  tenant: 'globex',
  actor: 'customer',
  scopes: ['operations:confirm'],
};
const granterOnly: TokenSubject = {
  sub: 'appr.chen',
  tenant: 'acme',
  actor: 'support_agent',
  scopes: ['changes:approve'],
};
/** operations:read without the operator actor reads nothing of the plane. */
const customer: TokenSubject = {
  sub: 'cust-1',
  tenant: 'acme',
  actor: 'customer',
  scopes: ['operations:read'],
};

/** GET /operator/v1/me: who the token names and what it may do on the operator plane, nothing else. */
describe('GET /operator/v1/me', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      extensions: [simulationExtension],
      modules: [changesDomain],
      app: { backgroundJobs: false },
    });
  });
  afterAll(async () => {
    await gw?.close();
  });

  async function me(who: TokenSubject | null, method = 'GET') {
    const headers: Record<string, string> = who ? { authorization: `Bearer ${await gw.tokenFor(who)}` } : {};
    const response = await fetch(new URL('/operator/v1/me', gw.origin), { method, headers });
    return {
      status: response.status,
      cache: response.headers.get('cache-control'),
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  it("answers the token's subject, tenant and actor and what it may do", async () => {
    expect(await me(everything)).toEqual({
      status: 200,
      cache: 'no-store',
      body: {
        subject: 'ops.lee',
        tenant: 'acme',
        actor: 'operator',
        may: { read_operations: true, review: true, confirm: true, grant_exceptions: ['maintenance_window'] },
      },
    });
    expect((await me(approverOnly)).body).toEqual({
      subject: 'appr.kim',
      tenant: 'globex',
      actor: 'customer',
      may: { read_operations: false, review: false, confirm: true, grant_exceptions: [] },
    });
    expect((await me(granterOnly)).body).toMatchObject({
      may: {
        read_operations: false,
        review: false,
        confirm: false,
        grant_exceptions: ['maintenance_window'],
      },
    });
  });

  it('refuses a token without operator authority (403) and no token (401), like its neighbours', async () => {
    const refused = await me(customer);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'forbidden' });
    expect(String(refused.body.message)).toContain('operations:confirm');
    expect(refused.body).not.toHaveProperty('subject');
    expect((await me(null)).status).toBe(401);
  });

  it('is read-only: no other method is routed', async () => {
    const answer = await me(everything, 'POST');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'not_found' });
  });
});
