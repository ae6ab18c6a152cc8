import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const script = join(import.meta.dirname, 'run-conformance.ts');

test('the MCP conformance suite passes every scenario that applies to a tools-only server', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
    cwd: join(import.meta.dirname, '../..'),
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const scenario of ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection']) {
    expect(stdout).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
  }
  expect(stdout).toContain('Baseline check passed');
}, 180_000);
