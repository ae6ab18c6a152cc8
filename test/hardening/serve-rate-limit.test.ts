import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand, type ServingProcess, startServing } from '../support/serve-process.ts';

const CLI = join(import.meta.dirname, '../../bin/toolgate.mjs');

/** Issue 14.3 end to end: `toolgate serve --rate-limit-per-principal N` answers RATE_LIMITED past N. */
describe('toolgate serve --rate-limit-per-principal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-serve-rl-'));
  let served: ServingProcess;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    served = await startServing(CLI, ['--port', '0', '--data-dir', dir, '--rate-limit-per-principal', '2']);
    for (const sub of ['rl-a', 'rl-b']) {
      const minted = await runCommand(CLI, [
        'token',
        '--sub',
        sub,
        '--tenant',
        'tenant_rl',
        '--actor',
        'operator',
        '--scopes',
        'operations:read',
        '--data-dir',
        dir,
        '--audience',
        served.url,
      ]);
      tokens[sub] = minted.stdout.trim();
    }
  }, 30_000);
  afterAll(async () => {
    await served?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (sub: string) => {
    const response = await fetch(served.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens[sub]}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'operations_get',
          arguments: { operation_id: 'op_00000000000000000000000000000000' },
        },
      }),
    });
    return (await response.json()).result.structuredContent;
  };

  test('the third call within a second is RATE_LIMITED; another principal is unaffected', async () => {
    const answers = [await call('rl-a'), await call('rl-a'), await call('rl-a')];
    expect(answers.slice(0, 2).map((a) => a.code)).not.toContain('RATE_LIMITED');
    expect(answers[2]).toMatchObject({
      status: 'failed',
      code: 'RATE_LIMITED',
      category: 'rate_limit',
      retryable: true,
    });
    expect((await call('rl-b')).code).not.toBe('RATE_LIMITED');
  });
});
