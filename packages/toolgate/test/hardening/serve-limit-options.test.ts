import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfigError, resolveServeConfig } from '../../src/cli/serve-options.ts';

/** Issue 14.2-14.4: the limits are flags, TOOLGATE_* variables and config settings, checked with names. */
describe('serve limit options', () => {
  const parent = mkdtempSync(join(tmpdir(), 'toolgate-limits-'));
  const dataDir = join(parent, 'data');
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  test('defaults: 100 requests/s and 8 MiB/s of answers per principal, 8 writes in flight, bounded HTTP waits, 24 h tokens, 5 s statements', () => {
    const config = resolveServeConfig({ dataDir });
    expect(config.limits).toEqual({
      perPrincipal: 100,
      replyBytesPerSecondPerPrincipal: 8 * 1024 * 1024,
      perPrincipalByKind: undefined,
      writesInFlightPerPrincipal: 8,
      fleet: true,
    });
    expect(config.connectionLimits).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_024,
    });
    expect(config.maxTokenLifetimeSeconds).toBe(86_400);
    expect(config.databaseStatementTimeoutMs).toBe(5_000);
  });

  test.skipIf(process.platform === 'win32')('the data dir the CLI creates is owner-only (0700)', () => {
    resolveServeConfig({ dataDir: join(parent, 'fresh') });
    expect(statSync(join(parent, 'fresh')).mode & 0o777).toBe(0o700);
  });

  test('flags override the config file, which gives per-class rates', () => {
    const config = resolveServeConfig(
      { dataDir, rateLimitPerPrincipal: '20', maxConnections: '64', requestTimeoutMs: '2000' },
      {
        rateLimit: { perPrincipal: 5, byKind: { write: 2 }, writesInFlightPerPrincipal: 3, fleet: false },
        http: { headersTimeoutMs: 1500 },
      },
    );
    expect(config.limits).toEqual({
      perPrincipal: 20,
      replyBytesPerSecondPerPrincipal: 8 * 1024 * 1024,
      perPrincipalByKind: { write: 2 },
      writesInFlightPerPrincipal: 3,
      fleet: false,
    });
    // --no-fleet-limits over a config file that holds them for the fleet.
    const off = resolveServeConfig({ dataDir, fleetLimits: false }, { rateLimit: { fleet: true } });
    expect(off.limits.fleet).toBe(false);
    expect(config.connectionLimits).toMatchObject({
      headersTimeoutMs: 1500,
      requestTimeoutMs: 2000,
      maxConnections: 64,
    });
  });

  test('every bad value is named with its flag', () => {
    let error: unknown;
    try {
      resolveServeConfig({
        dataDir,
        rateLimitPerPrincipal: '-1',
        replyBytesPerSecondPerPrincipal: '1.5',
        auditRetentionSeconds: '3600',
        maxWritesInFlightPerPrincipal: 'x',
        headersTimeoutMs: '5',
        maxTokenLifetimeSeconds: '10',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const flag of [
      '--rate-limit-per-principal -1',
      '--reply-bytes-per-second-per-principal 1.5',
      '--audit-retention-seconds 3600',
      '--max-writes-in-flight-per-principal x',
      '--headers-timeout-ms 5',
      '--max-token-lifetime-seconds 10',
    ]) {
      expect(message).toContain(flag);
    }
  });

  // Each numeric setting: its default, then the config file, the variable and the flag, each overriding
  // the one before; a value out of range is refused naming the flag.
  const settings = [
    {
      key: 'toolsPageSize',
      flag: '--tools-page-size',
      env: 'TOOLGATE_TOOLS_PAGE_SIZE',
      byDefault: 100,
      refused: ['0'],
      rule: 'an integer from 1 to 10000',
    },
    {
      key: 'tasksPageSize',
      flag: '--tasks-page-size',
      env: 'TOOLGATE_TASKS_PAGE_SIZE',
      byDefault: 50,
      refused: ['0', '1001'],
      rule: 'an integer from 1 to 1000',
    },
    {
      key: 'databaseReadLanes',
      flag: '--database-read-lanes',
      env: 'TOOLGATE_DATABASE_READ_LANES',
      byDefault: 1,
      refused: ['17'],
      rule: 'an integer from 0 to 16',
    },
  ] as const;
  for (const { key, flag, env, byDefault, refused, rule } of settings) {
    test(`${flag}: ${byDefault} by default, then the file, ${env} and the flag`, () => {
      expect(resolveServeConfig({ dataDir })[key]).toBe(byDefault);
      expect(resolveServeConfig({ dataDir }, { [key]: 4 })[key]).toBe(4);
      process.env[env] = '3';
      try {
        expect(resolveServeConfig({ dataDir }, { [key]: 4 })[key]).toBe(3);
        expect(resolveServeConfig({ dataDir, [key]: '2' }, { [key]: 4 })[key]).toBe(2);
      } finally {
        delete process.env[env];
      }
      for (const value of refused) {
        expect(() => resolveServeConfig({ dataDir, [key]: value })).toThrow(
          `${flag} ${value}: must be ${rule}`,
        );
      }
    });
  }

  test('--retention-seconds: from the file, TOOLGATE_RETENTION_SECONDS or the flag, within 60 s and a year', () => {
    expect(resolveServeConfig({ dataDir }).retentionSeconds).toBeUndefined();
    expect(resolveServeConfig({ dataDir }, { retentionSeconds: 600 }).retentionSeconds).toBe(600);
    process.env.TOOLGATE_RETENTION_SECONDS = '3600';
    try {
      expect(resolveServeConfig({ dataDir }, { retentionSeconds: 600 }).retentionSeconds).toBe(3600);
      expect(
        resolveServeConfig({ dataDir, retentionSeconds: '7200' }, { retentionSeconds: 600 }).retentionSeconds,
      ).toBe(7200);
    } finally {
      delete process.env.TOOLGATE_RETENTION_SECONDS;
    }
    for (const value of ['59', '31536001', 'a day']) {
      expect(() => resolveServeConfig({ dataDir, retentionSeconds: value })).toThrow(
        `--retention-seconds ${value}: must be an integer from 60 to 31536000`,
      );
    }
  });

  test('0 turns the rate limit and the reply-byte budget off, by flag or variable', () => {
    const off = resolveServeConfig({
      dataDir,
      rateLimitPerPrincipal: '0',
      replyBytesPerSecondPerPrincipal: '0',
    });
    expect(off.limits.perPrincipal).toBeUndefined();
    expect(off.limits.replyBytesPerSecondPerPrincipal).toBeUndefined();
    process.env.TOOLGATE_RATE_LIMIT_PER_PRINCIPAL = '0';
    process.env.TOOLGATE_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL = '1000';
    try {
      const config = resolveServeConfig({ dataDir });
      expect(config.limits.perPrincipal).toBeUndefined();
      expect(config.limits.replyBytesPerSecondPerPrincipal).toBe(1000);
    } finally {
      delete process.env.TOOLGATE_RATE_LIMIT_PER_PRINCIPAL;
      delete process.env.TOOLGATE_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL;
    }
  });

  test('--audit-retention-seconds: TOOLGATE_AUDIT_RETENTION_SECONDS or the flag, at least a day', () => {
    expect(resolveServeConfig({ dataDir }).auditRetentionSeconds).toBeUndefined();
    process.env.TOOLGATE_AUDIT_RETENTION_SECONDS = '172800';
    try {
      expect(resolveServeConfig({ dataDir }).auditRetentionSeconds).toBe(172_800);
      expect(resolveServeConfig({ dataDir, auditRetentionSeconds: '86400' }).auditRetentionSeconds).toBe(
        86_400,
      );
    } finally {
      delete process.env.TOOLGATE_AUDIT_RETENTION_SECONDS;
    }
    expect(() => resolveServeConfig({ dataDir, auditRetentionSeconds: '86399' })).toThrow(
      '--audit-retention-seconds 86399: must be a whole number of seconds from 86400',
    );
  });

  test('--database-read-lanes 0 is accepted: no lanes, the pool only', () => {
    expect(resolveServeConfig({ dataDir, databaseReadLanes: '0' }).databaseReadLanes).toBe(0);
  });
});
