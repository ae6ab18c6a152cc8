import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { resolveServeConfig } from '../../src/cli/serve-options.ts';
import { loadConfigFile } from '../../src/config/load-config.ts';
import { type JwksGateway, startJwksGateway } from './jwks-gateway.ts';
import { type LocalIssuer, startLocalIssuer } from './local-issuer.ts';

describe('typ of tokens from an external issuer (RFC 9068 section 4)', () => {
  let issuer: LocalIssuer;
  let strict: JwksGateway;
  let lenient: JwksGateway;

  beforeAll(async () => {
    issuer = await startLocalIssuer();
    await issuer.publish('k1');
    strict = await startJwksGateway(issuer);
    lenient = await startJwksGateway(issuer, { requireTokenType: false });
  });
  afterAll(async () => {
    await strict?.close();
    await lenient?.close();
    await issuer?.close();
  });

  test.each([
    ['at+jwt', 'at+jwt'],
    ['application/at+jwt', 'application/at+jwt'],
  ])('typ %s is accepted by default and reaches the tool', async (_name, typ) => {
    const before = strict.ledger.executions.probe_echo ?? 0;
    const response = await strict.call(await issuer.sign('k1', strict.url, { typ }));
    expect(response.status).toBe(200);
    expect(strict.ledger.executions.probe_echo).toBe(before + 1);
  });

  test.each([
    ['no typ', undefined],
    ['typ JWT', 'JWT'],
    ['typ id_token+jwt', 'id_token+jwt'],
  ])('%s is 401 invalid_token by default, saying why, and no tool runs', async (_name, typ) => {
    const before = strict.ledger.executions.probe_echo ?? 0;
    const response = await strict.call(await issuer.sign('k1', strict.url, { typ }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description: 'token type must be at+jwt (JWT header typ, RFC 9068)',
    });
    expect(strict.ledger.executions.probe_echo ?? 0).toBe(before);
  });

  test('with requireTokenType false, a token without typ is accepted', async () => {
    const before = lenient.ledger.executions.probe_echo ?? 0;
    const response = await lenient.call(await issuer.sign('k1', lenient.url, { typ: undefined }));
    expect(response.status).toBe(200);
    expect(lenient.ledger.executions.probe_echo).toBe(before + 1);
  });
});

const MODULE_CONFIG = (value: string) =>
  `export default { requireTokenType: ${value}, modules: [{ name: 'm', create: () => ({ tools: [] }) }] };\n`;

describe('the requireTokenType setting', () => {
  const parent = mkdtempSync(join(tmpdir(), 'toolgate-typ-'));
  const dataDir = join(parent, 'data');
  const external = {
    dataDir,
    jwksUrl: 'https://login.example.com/jwks',
    issuer: 'https://login.example.com/',
  };
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => rmSync(parent, { recursive: true, force: true }));
  const keysOf = (config: ReturnType<typeof resolveServeConfig>) =>
    config.keys.kind === 'jwks' ? config.keys.requireTokenType : 'dev';

  test('is on by default for an external issuer', () => {
    expect(keysOf(resolveServeConfig(external))).toBe(true);
  });

  test('--no-require-token-type, TOOLGATE_REQUIRE_TOKEN_TYPE=0 and the config key each turn it off', () => {
    expect(keysOf(resolveServeConfig({ ...external, requireTokenType: false }))).toBe(false);
    expect(keysOf(resolveServeConfig(external, { requireTokenType: false }))).toBe(false);
    vi.stubEnv('TOOLGATE_REQUIRE_TOKEN_TYPE', '0');
    expect(keysOf(resolveServeConfig(external, { requireTokenType: true }))).toBe(false);
  });

  test('the dev key path keeps its own rule: dev tokens always need typ at+jwt', () => {
    expect(keysOf(resolveServeConfig({ dataDir, requireTokenType: false }))).toBe('dev');
  });

  test('a config file may set it, and only as a boolean', async () => {
    const good = join(parent, 'good.mjs');
    writeFileSync(good, MODULE_CONFIG('false'));
    expect((await loadConfigFile(good)).config).toMatchObject({ requireTokenType: false });
    const bad = join(parent, 'bad.mjs');
    writeFileSync(bad, MODULE_CONFIG("'no'"));
    await expect(loadConfigFile(bad)).rejects.toThrow(/requireTokenType/);
  });
});
