import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rawPost } from '../../../../test/hardening/raw-post.ts';
import { runCommand, type ServingProcess, startServing } from '../../../../test/support/serve-process.ts';
import { DEFAULT_RATE_LIMIT_PER_PRINCIPAL } from '../../src/gateway/limit-defaults.ts';

const CLI = join(import.meta.dirname, '../../../../bin/toolgate.mjs');

/** A gateway started as the README says, with no limit flag, holds an abusive caller back. */
describe('toolgate serve limits by default', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-serve-default-'));
  let served: ServingProcess;
  const headers: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    served = await startServing(CLI, ['--port', '0', '--data-dir', dir]);
    for (const sub of ['abusive', 'normal']) {
      const minted = await runCommand(CLI, [
        'token',
        '--sub',
        `user_${sub}`,
        '--tenant',
        'tenant_default',
        '--actor',
        'customer',
        '--scopes',
        'orders:read',
        '--data-dir',
        dir,
        '--audience',
        served.url,
      ]);
      headers[sub] = {
        authorization: `Bearer ${minted.stdout.trim()}`,
        'content-type': 'application/json',
        accept: 'application/json',
      };
    }
  }, 30_000);
  afterAll(async () => {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('prints every limit at start', () => {
    const output = served.output();
    expect(output).toContain(`rate per principal`);
    expect(output).toContain(`${DEFAULT_RATE_LIMIT_PER_PRINCIPAL} requests/s`);
    for (const row of ['reply bytes per principal', 'writes in flight', 'request body', 'answer per POST']) {
      expect(output).toContain(row);
    }
    expect(output).toContain('audit 7776000 s');
  });

  test('batches of listings are refused 429 past the default rate; a normal caller is served', async () => {
    const batch = JSON.stringify(
      Array.from({ length: 4 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
    );
    const statuses: number[] = [];
    // Each batch weighs 16: the default burst holds six or seven of them.
    for (let i = 0; i < 20; i++) statuses.push((await rawPost(served.url, headers.abusive!, batch)).status);
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'orders_get', arguments: { order_id: `ord_${'0'.repeat(32)}` } },
    };
    for (let i = 0; i < 3; i++) {
      const answer = await rawPost(served.url, headers.normal!, JSON.stringify(call));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).result.structuredContent.code).not.toBe('RATE_LIMITED');
    }
  });
});
