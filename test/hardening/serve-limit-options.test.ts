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

  test('defaults: no rate limit, 8 writes in flight, bounded HTTP waits, 24 h tokens, 5 s statements', () => {
    const config = resolveServeConfig({ dataDir });
    expect(config.limits).toEqual({
      perPrincipal: undefined,
      perPrincipalByKind: undefined,
      writesInFlightPerPrincipal: 8,
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
        rateLimit: { perPrincipal: 5, byKind: { write: 2 }, writesInFlightPerPrincipal: 3 },
        http: { headersTimeoutMs: 1500 },
      },
    );
    expect(config.limits).toEqual({
      perPrincipal: 20,
      perPrincipalByKind: { write: 2 },
      writesInFlightPerPrincipal: 3,
    });
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
        rateLimitPerPrincipal: '0',
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
      '--rate-limit-per-principal 0',
      '--max-writes-in-flight-per-principal x',
      '--headers-timeout-ms 5',
      '--max-token-lifetime-seconds 10',
    ]) {
      expect(message).toContain(flag);
    }
  });

  test('the tools/list page size: 100 by default, then the file, the variable and the flag', () => {
    expect(resolveServeConfig({ dataDir }).toolsPageSize).toBe(100);
    expect(resolveServeConfig({ dataDir }, { toolsPageSize: 40 }).toolsPageSize).toBe(40);
    process.env.TOOLGATE_TOOLS_PAGE_SIZE = '30';
    try {
      expect(resolveServeConfig({ dataDir }, { toolsPageSize: 40 }).toolsPageSize).toBe(30);
      expect(resolveServeConfig({ dataDir, toolsPageSize: '20' }, { toolsPageSize: 40 }).toolsPageSize).toBe(
        20,
      );
    } finally {
      delete process.env.TOOLGATE_TOOLS_PAGE_SIZE;
    }
    expect(() => resolveServeConfig({ dataDir, toolsPageSize: '0' })).toThrow(/--tools-page-size 0/);
  });

  test('PostgreSQL read lanes: 1 by default, then the file, the variable and the flag; 0 turns them off', () => {
    expect(resolveServeConfig({ dataDir }).databaseReadLanes).toBe(1);
    expect(resolveServeConfig({ dataDir }, { databaseReadLanes: 0 }).databaseReadLanes).toBe(0);
    process.env.TOOLGATE_DATABASE_READ_LANES = '2';
    try {
      expect(resolveServeConfig({ dataDir }, { databaseReadLanes: 0 }).databaseReadLanes).toBe(2);
      expect(resolveServeConfig({ dataDir, databaseReadLanes: '3' }).databaseReadLanes).toBe(3);
    } finally {
      delete process.env.TOOLGATE_DATABASE_READ_LANES;
    }
    expect(() => resolveServeConfig({ dataDir, databaseReadLanes: '17' })).toThrow(
      /--database-read-lanes 17/,
    );
  });

  test('the tasks/list page size: 50 by default, then the file, the variable and the flag', () => {
    expect(resolveServeConfig({ dataDir }).tasksPageSize).toBe(50);
    expect(resolveServeConfig({ dataDir }, { tasksPageSize: 40 }).tasksPageSize).toBe(40);
    process.env.TOOLGATE_TASKS_PAGE_SIZE = '30';
    try {
      expect(resolveServeConfig({ dataDir }, { tasksPageSize: 40 }).tasksPageSize).toBe(30);
      expect(resolveServeConfig({ dataDir, tasksPageSize: '20' }, { tasksPageSize: 40 }).tasksPageSize).toBe(
        20,
      );
    } finally {
      delete process.env.TOOLGATE_TASKS_PAGE_SIZE;
    }
    expect(() => resolveServeConfig({ dataDir, tasksPageSize: '0' })).toThrow(/--tasks-page-size 0/);
    expect(() => resolveServeConfig({ dataDir, tasksPageSize: '1001' })).toThrow(/--tasks-page-size 1001/);
  });
});
