import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../support/free-port.ts';
import { runCommand, startServing } from '../support/serve-process.ts';

const BIN = join(import.meta.dirname, '../../bin/toolgate.mjs');
const FIXTURES = join(import.meta.dirname, 'fixtures');
const HANGING_CREATE = join(FIXTURES, 'hanging-create.config.mjs');
const HANGING_IMPORT = join(FIXTURES, 'hanging-import.config.mjs');
const HUGE_SCHEMA = join(FIXTURES, 'huge-schema.config.mjs');
const NOTES = join(FIXTURES, 'notes.config.mjs');
const OVERSIZED_LISTING = join(FIXTURES, 'oversized-listing.config.mjs');
const SHORT = { TOOLGATE_STARTUP_TIMEOUT_MS: '1500' };

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Runs serve to its exit, trying the port all the while; says whether it was ever bound. */
async function serveUntilExit(config: string, port: number, dataDir: string, extra: string[] = []) {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--config', config, '--port', String(port), '--data-dir', dataDir, ...extra],
    { env: { ...process.env, ...SHORT }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  let bound = false;
  while (child.exitCode === null) {
    if (await accepts(port)) bound = true;
    await sleep(50);
  }
  return { code: await code, stdout, stderr, bound };
}

describe('bounded start-up', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-startup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('serve gives up on a module whose create() never settles, naming the module; the port is never bound', async () => {
    const port = await freePort();
    const run = await serveUntilExit(HANGING_CREATE, port, dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'toolgate serve: start-up gave up after 1500 ms waiting on module stuck_backend: its create() has not settled',
    );
    expect(run.stderr).toContain('TOOLGATE_STARTUP_TIMEOUT_MS');
    expect(run.stdout).toBe('');
    expect(run.bound).toBe(false);
  });

  test('serve gives up on a config whose top-level await never settles, naming the file; the port is never bound', async () => {
    const port = await freePort();
    const run = await serveUntilExit(HANGING_IMPORT, port, dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `toolgate serve: start-up gave up after 1500 ms waiting on the import of config file ${HANGING_IMPORT}`,
    );
    expect(run.stdout).toBe('');
    expect(run.bound).toBe(false);
  });

  test('serve gives up on a policy set that loads past the bound, naming the set; the port is never bound', async () => {
    const policies = join(dir, 'many-policies');
    mkdirSync(policies);
    copyFileSync(
      join(import.meta.dirname, '../../packages/domains/policies/toolgate.cedarschema'),
      join(policies, 'toolgate.cedarschema'),
    );
    const permits = Array.from(
      { length: 8_000 },
      (_, i) =>
        `@id("reader-${i}")\npermit (principal == Principal::"acme/u${i}", action == Action::"orders_get", resource);`,
    );
    writeFileSync(join(policies, 'readers.cedar'), permits.join('\n'));
    const port = await freePort();
    const run = await serveUntilExit(NOTES, port, dir, ['--policy', policies]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `toolgate serve: start-up gave up after 1500 ms waiting on the policy set ${policies}; TOOLGATE_STARTUP_TIMEOUT_MS sets the bound`,
    );
    expect(run.stdout).toBe('');
    expect(run.bound).toBe(false);
  }, 60_000);

  test('lint and contract export give up on the same configs, naming what they waited on', async () => {
    const lint = await runCommand(BIN, ['lint', '--config', HANGING_CREATE], { env: SHORT });
    expect(lint.code).toBe(2);
    expect(lint.stderr).toContain(
      'toolgate lint: start-up gave up after 1500 ms waiting on module stuck_backend',
    );
    expect(lint.stdout).toBe('');
    const exported = await runCommand(BIN, ['contract', 'export', '--config', HANGING_IMPORT], {
      env: SHORT,
    });
    expect(exported.code).toBe(2);
    expect(exported.stderr).toContain(
      `toolgate contract export: start-up gave up after 1500 ms waiting on the import of config file ${HANGING_IMPORT}`,
    );
    expect(exported.stdout).toBe('');
  });

  test('a start-up deadline out of range is refused before anything is loaded', async () => {
    const run = await runCommand(BIN, ['lint', '--config', NOTES], {
      env: { TOOLGATE_STARTUP_TIMEOUT_MS: '5s' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('TOOLGATE_STARTUP_TIMEOUT_MS=5s: must be a whole number of milliseconds');
    expect(run.stdout).toBe('');
  });

  test('a start-up that finished is not ended by the deadline afterwards', async () => {
    const serving = await startServing(BIN, ['--config', NOTES, '--port', '0', '--data-dir', dir], {
      env: { TOOLGATE_STARTUP_TIMEOUT_MS: '1000' },
    });
    try {
      await sleep(1500);
      expect(serving.child.exitCode).toBeNull();
      const health = await fetch(new URL('/healthz', serving.url));
      expect(health.status).toBe(200);
    } finally {
      await serving.stop();
    }
  });

  test('serve refuses a 30,000-property input schema at load, naming the tool and the bound', async () => {
    const port = await freePort();
    const run = await runCommand(BIN, [
      'serve',
      '--config',
      HUGE_SCHEMA,
      '--port',
      String(port),
      '--data-dir',
      dir,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(HUGE_SCHEMA);
    expect(run.stderr).toContain(
      'tool wide_get: input schema declares 30000 properties in one object at /; at most 1000 are allowed [schema-bounds]',
    );
    expect(run.stderr).not.toContain('Maximum call stack size exceeded');
    expect(run.stdout).toBe('');
    expect(await accepts(port)).toBe(false);
  });

  test('serve refuses at load the tool that takes the listing past the reply cap, with its size and the cap', async () => {
    const port = await freePort();
    const run = await runCommand(BIN, [
      'serve',
      '--config',
      OVERSIZED_LISTING,
      '--port',
      String(port),
      '--data-dir',
      dir,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /tool wordy_find: with its \d+-byte entry the tools\/list listing would be \d+ bytes; a listing must fit the 4194304-byte reply cap .*\[listing-size\]/,
    );
    expect(run.stderr).not.toContain('tool wordy_get');
    expect(run.stdout).toBe('');
    expect(await accepts(port)).toBe(false);
  });
});
