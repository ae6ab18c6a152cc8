import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateDevKeys, mintToken } from 'toolgate/server';
import { freePort } from '../support/free-port.ts';

/**
 * `npm run conformance`: starts `toolgate serve` as a child on a free loopback port and runs the pinned
 * MCP conformance suite's server requirement sets against it, one per protocol revision the endpoint
 * serves (2025-11-25 with the `initialize` handshake, 2026-07-28 stateless). Exits non-zero on any
 * failure not listed in .ci/conformance/<revision>.yml (or on a listed one that now passes). The suite
 * sends no Authorization header, so the server runs with --local-principal-token; its principal may
 * read, so that tools/list has tools for the header and caching checks to call.
 * `npm run conformance -- 2026-07-28` runs one set.
 */
const root = join(import.meta.dirname, '../..');
const cli = join(root, 'bin/toolgate.mjs');
const suite = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const REVISIONS = ['2025-11-25', '2026-07-28'];

async function waitForHealth(origin: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`gateway at ${origin} did not become healthy`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-conformance-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}/mcp`;
const token = await mintToken(
  await loadOrCreateDevKeys(dataDir),
  {
    sub: 'conformance-suite',
    tenant: 'conformance',
    actor: 'service',
    scopes: ['orders:read', 'operations:read'],
  },
  { audience: url, ttlSeconds: 3600 },
);
// The suite drives one principal as fast as it can; the per-principal limits are tested on their own.
const gateway = spawn(
  process.execPath,
  [
    cli,
    'serve',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    '--local-principal-token',
    token,
    '--rate-limit-per-principal',
    '0',
  ],
  { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, TOOLGATE_LOG_LEVEL: 'warn' } },
);
let exitCode = 1;
try {
  await waitForHealth(`http://127.0.0.1:${port}`, Date.now() + 30_000);
  const asked = process.argv.slice(2);
  const revisions = asked.length > 0 ? asked : REVISIONS;
  const unknown = revisions.filter((r) => !REVISIONS.includes(r));
  if (unknown.length > 0) throw new Error(`no requirement set for ${unknown.join(', ')}`);
  exitCode = 0;
  for (const revision of revisions) {
    console.log(`\n=== Requirement set ${revision} ===`);
    const expectedFailures = join(root, `.ci/conformance/${revision}.yml`);
    const args = [suite, 'server', '--url', url, '--requirements', revision];
    const runner = spawn(process.execPath, [...args, '--expected-failures', expectedFailures], {
      stdio: 'inherit',
      cwd: dataDir,
    });
    const code = await new Promise<number>((resolve) => runner.on('exit', (c) => resolve(c ?? 1)));
    if (code !== 0) exitCode = code;
  }
} finally {
  gateway.kill('SIGTERM');
  await new Promise((resolve) => gateway.on('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
