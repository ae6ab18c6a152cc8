import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { DEV_ISSUER, loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';
import { createTokenVerifier } from '../../src/auth/token-verifier.ts';

const reader = { tenant: 'tenant_probe', actor: 'customer', scope: 'probe:read' };
const now = () => Math.floor(Date.now() / 1000);

/** Issue 14.4: a token's age, lifetime and type are bounded, not only its signature. */
describe('token lifetime and type', () => {
  let gw: StartedGateway;
  const sign = async (
    header: Record<string, unknown>,
    times: { iat?: number; exp: number },
  ): Promise<string> => {
    const keys = await loadOrCreateDevKeys(gw.dataDir);
    const jwt = new SignJWT(reader)
      .setProtectedHeader({ alg: 'ES256', kid: keys.kid, ...header })
      .setSubject('user_probe_reader')
      .setIssuer(DEV_ISSUER)
      .setAudience(gw.url)
      .setExpirationTime(times.exp);
    if (times.iat !== undefined) jwt.setIssuedAt(times.iat);
    return jwt.sign(keys.privateKey);
  };
  const verify = async (token: string, maxLifetimeSeconds?: number) => {
    const verifier = await createTokenVerifier({ kind: 'dev', dataDir: gw.dataDir }, gw.url, {
      maxLifetimeSeconds,
    });
    return verifier.verify(token);
  };

  beforeAll(async () => {
    gw = await startGateway({ modules: [] });
  });
  afterAll(() => gw.close());

  test('a dev token as minted (typ at+jwt, 12 h) is accepted', async () => {
    const verdict = await verify(await sign({ typ: 'at+jwt' }, { iat: now(), exp: now() + 12 * 3600 }));
    expect(verdict.ok).toBe(true);
    expect(
      await verify(await gw.tokenFor({ sub: 'u', tenant: 't', actor: 'customer', scopes: [] })),
    ).toMatchObject({
      ok: true,
    });
  });

  test.each([
    ['an iat in the future', { typ: 'at+jwt' }, () => ({ iat: now() + 600, exp: now() + 1200 })],
    ['a 100-year exp', { typ: 'at+jwt' }, () => ({ iat: now(), exp: now() + 100 * 365 * 86400 })],
    ['a 100-year exp without iat', { typ: 'at+jwt' }, () => ({ exp: now() + 100 * 365 * 86400 })],
    ['typ JWT', { typ: 'JWT' }, () => ({ iat: now(), exp: now() + 600 })],
    ['no typ', {}, () => ({ iat: now(), exp: now() + 600 })],
  ])('%s is refused', async (_name, header, times) => {
    const verdict = await verify(await sign(header, times()));
    expect(verdict.ok).toBe(false);
  });

  test('the maximum lifetime is configurable', async () => {
    const token = await sign({ typ: 'at+jwt' }, { iat: now(), exp: now() + 7200 });
    expect((await verify(token, 3600)).ok).toBe(false);
    expect((await verify(token, 8000)).ok).toBe(true);
  });

  test('over HTTP, a refused token is a 401 and nothing runs', async () => {
    const token = await sign({ typ: 'at+jwt' }, { iat: now() + 3600, exp: now() + 7200 });
    const response = await fetch(gw.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });
});
