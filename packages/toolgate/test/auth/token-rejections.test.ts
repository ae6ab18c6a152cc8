import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { base64url, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  newProbeLedger,
  type ProbeLedger,
  probeReader,
  probeTools,
} from '../../../../test/gateway/probe-tools.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { DEV_KEY_FILE, loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';

const call = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'probe_echo', arguments: { text: 'a' } },
};
const reader = {
  sub: 'user_probe_reader',
  tenant: 'tenant_probe',
  actor: 'customer',
  scopes: ['probe:read'],
} as const;

describe('bearer tokens at the HTTP edge', () => {
  let ledger: ProbeLedger;
  let gw: StartedGateway;
  const post = (authorization: string | null) =>
    fetch(gw.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(authorization === null ? {} : { authorization }),
      },
      body: JSON.stringify(call),
    });
  const claims = (extra: Record<string, unknown> = {}) => ({
    tenant: reader.tenant,
    actor: reader.actor,
    scope: reader.scopes.join(' '),
    ...extra,
  });
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    ledger = newProbeLedger();
    gw = await startGateway({ modules: [], tools: probeTools(ledger), principals: [probeReader] });
  });
  afterAll(() => gw.close());
  beforeEach(() => {
    for (const key of Object.keys(ledger.executions)) delete ledger.executions[key];
  });

  test('a valid token reaches the tool', async () => {
    const response = await post(`Bearer ${await gw.tokenFor(reader)}`);
    expect(response.status).toBe(200);
    expect(ledger.executions).toEqual({ probe_echo: 1 });
  });

  test('no token: 401 pointing at the resource metadata, without an error parameter', async () => {
    const response = await post(null);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${gw.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(ledger.executions).toEqual({});
    const { body } = await gw.app.metrics.exposition();
    expect(body).toMatch(/toolgate_http_unauthenticated_total\{token="missing"\} [1-9]/);
  });

  const rejected: [string, () => Promise<string>][] = [
    ['wrong audience', () => gw.tokenFor(reader, { audience: 'http://127.0.0.1:1/mcp' })],
    ['expired', () => gw.tokenFor(reader, { ttlSeconds: -120 })],
    ['not yet valid (nbf)', () => gw.tokenFor(reader, { notBeforeSeconds: 600 })],
    ['wrong issuer', () => gw.tokenFor(reader, { issuer: 'https://issuer.example' })],
    [
      'alg none',
      async () => {
        const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
        const body = base64url.encode(
          JSON.stringify({
            ...claims(),
            sub: reader.sub,
            iss: 'urn:toolgate:dev',
            aud: gw.url,
            exp: now() + 600,
          }),
        );
        return `${header}.${body}.`;
      },
    ],
    [
      'HS256 keyed with the public key',
      async () => {
        const { d: _d, ...publicJwk } = JSON.parse(readFileSync(join(gw.dataDir, DEV_KEY_FILE), 'utf8'));
        const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
        return new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(reader.sub)
          .setIssuer('urn:toolgate:dev')
          .setAudience(gw.url)
          .setExpirationTime(now() + 600)
          .sign(secret);
      },
    ],
    [
      'signed by another key',
      async () => {
        const { privateKey } = await generateKeyPair('ES256');
        return new SignJWT(claims())
          .setProtectedHeader({ alg: 'ES256' })
          .setSubject(reader.sub)
          .setIssuer('urn:toolgate:dev')
          .setAudience(gw.url)
          .setExpirationTime(now() + 600)
          .sign(privateKey);
      },
    ],
    ['an unknown actor', () => gw.tokenFor({ ...reader, actor: 'admin' as 'operator' })],
    ['garbage', async () => 'not.a.jwt'],
  ];

  test('a token for another audience is told which audience this server expects', async () => {
    const token = await gw.tokenFor(reader, { audience: 'http://127.0.0.1:1/mcp' });
    const response = await post(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      error_description: `token audience does not match: this server expects aud ${gw.url}`,
    });
  });

  test.each(rejected)('%s: 401 invalid_token and no handler ran', async (_name, token) => {
    const response = await post(`Bearer ${await token()}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(
      /^Bearer error="invalid_token", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    expect(await response.json()).toMatchObject({ error: 'invalid_token' });
    expect(ledger.executions).toEqual({});
  });

  test('a token signed with the dev key but without exp is refused', async () => {
    const keys = await loadOrCreateDevKeys(gw.dataDir);
    const token = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'ES256', kid: keys.kid })
      .setSubject(reader.sub)
      .setIssuer('urn:toolgate:dev')
      .setAudience(gw.url)
      .sign(keys.privateKey);
    const response = await post(`Bearer ${token}`);
    expect(response.status).toBe(401);
    expect(ledger.executions).toEqual({});
  });

  test('the SDK client without a token cannot connect', async () => {
    const client = new Client({ name: 'anonymous', version: '0' });
    const error = await client
      .connect(new StreamableHTTPClientTransport(new URL(gw.url)))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/401|Unauthorized/i);
    expect(ledger.executions).toEqual({});
  });

  test('the protected-resource metadata names this resource and its scopes (RFC 9728)', async () => {
    const response = await fetch(`${gw.origin}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    const metadata = await response.json();
    expect(metadata).toMatchObject({ resource: gw.url, bearer_methods_supported: ['header'] });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['probe:read', 'probe:admin']));
    expect(metadata.authorization_servers).toEqual([]);
  });
});
