import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { DEV_KEY_FILE, loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';
import { mintToken } from '../../src/auth/mint-token.ts';
import { createTokenVerifier } from '../../src/auth/token-verifier.ts';

const AUD = 'http://127.0.0.1:8787/mcp';
const subject = {
  sub: 'u1',
  tenant: 't1',
  actor: 'support_agent',
  scopes: ['orders:read', 'shipments:redirect'],
} as const;

describe('the dev key pair', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-keys-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('is created once, owner-readable only, and reused by later starts', async () => {
    const dir = tempDir();
    const first = await loadOrCreateDevKeys(dir);
    expect(statSync(join(dir, DEV_KEY_FILE)).mode & 0o777).toBe(0o600);
    const again = await loadOrCreateDevKeys(dir);
    expect(again.kid).toBe(first.kid);
    const token = await mintToken(first, subject, { audience: AUD });
    const verdict = await (await createTokenVerifier({ kind: 'dev', dataDir: dir }, AUD)).verify(token);
    expect(verdict.ok).toBe(true);
  });

  test('concurrent first starts agree on one key', async () => {
    const dir = tempDir();
    const keys = await Promise.all([1, 2, 3, 4].map(() => loadOrCreateDevKeys(dir)));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
  });

  test('a key file that is not an ES256 private key is refused with a way out', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, DEV_KEY_FILE), JSON.stringify({ kty: 'oct', k: 'c2VjcmV0' }), { mode: 0o600 });
    await expect(loadOrCreateDevKeys(dir)).rejects.toThrow(/delete it/);
  });

  test('claims map to the principal: subject, tenant, actor, the space-separated scopes and the groups (none here)', async () => {
    const dir = tempDir();
    const keys = await loadOrCreateDevKeys(dir);
    const verifier = await createTokenVerifier({ kind: 'dev', dataDir: dir }, AUD);
    const verdict = await verifier.verify(await mintToken(keys, subject, { audience: AUD }));
    if (!verdict.ok) throw new Error(verdict.detail);
    expect(verdict.principal).toEqual({
      subject: 'u1',
      tenant: 't1',
      actor: 'support_agent',
      scopes: new Set(['orders:read', 'shipments:redirect']),
      groups: [],
    });
  });

  test('a token without tenant is not usable', async () => {
    const dir = tempDir();
    const keys = await loadOrCreateDevKeys(dir);
    const token = await new SignJWT({ actor: 'customer', scope: '' })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
      .setSubject('u1')
      .setIssuer('urn:toolgate:dev')
      .setAudience(AUD)
      .setExpirationTime('1h')
      .sign(keys.privateKey);
    const verdict = await (await createTokenVerifier({ kind: 'dev', dataDir: dir }, AUD)).verify(token);
    expect(verdict).toEqual({ ok: false, detail: expect.stringContaining('tenant') });
  });
});

describe('production tokens from a JWKS', () => {
  let jwksServer: Server;
  let jwksUrl: string;
  let signingKey: CryptoKey;
  let jwksRequests = 0;
  const ISSUER = 'https://login.example.com/';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    signingKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwksServer = createServer((_req, res) => {
      jwksRequests += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

  const sign = (alg: 'RS256', iss = ISSUER) =>
    new SignJWT({ tenant: 't1', actor: 'service', scope: 'orders:read' })
      .setProtectedHeader({ alg, kid: 'k1', typ: 'at+jwt' })
      .setSubject('svc-1')
      .setIssuer(iss)
      .setAudience('https://api.example.com/mcp')
      .setExpirationTime('5m')
      .sign(signingKey);

  test('an RS256 token from the issuer is accepted, and verified tokens are served from the cache', async () => {
    const verifier = await createTokenVerifier(
      { kind: 'jwks', jwksUrl, issuer: ISSUER },
      'https://api.example.com/mcp',
    );
    const token = await sign('RS256');
    const before = jwksRequests;
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);
    expect(first.ok && first.principal.subject).toBe('svc-1');
    expect(second).toEqual(first);
    expect(jwksRequests - before).toBeLessThanOrEqual(1);
  });

  test('the issuer must match', async () => {
    const verifier = await createTokenVerifier(
      { kind: 'jwks', jwksUrl, issuer: ISSUER },
      'https://api.example.com/mcp',
    );
    const verdict = await verifier.verify(await sign('RS256', 'https://other.example.com/'));
    expect(verdict).toEqual({ ok: false, detail: expect.stringContaining('iss') });
  });

  test('an HS256 token is refused whatever its secret', async () => {
    const verifier = await createTokenVerifier(
      { kind: 'jwks', jwksUrl, issuer: ISSUER },
      'https://api.example.com/mcp',
    );
    const token = await new SignJWT({ tenant: 't1', actor: 'service', scope: '' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setSubject('svc-1')
      .setIssuer(ISSUER)
      .setAudience('https://api.example.com/mcp')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-of-sufficient-length'));
    expect(await verifier.verify(token)).toEqual({ ok: false, detail: 'token algorithm not allowed' });
  });
});
