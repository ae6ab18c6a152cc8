import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const script = join(import.meta.dirname, 'run-conformance.ts');

/** The scenarios each requirement set must pass outright, beside the baseline check. */
const MUST_PASS: Record<string, string[]> = {
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'],
  '2026-07-28': ['tools-list', 'dns-rebinding-protection', 'http-header-validation'],
};

test('both MCP conformance requirement sets pass every scenario that applies to a tools-only server', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
    cwd: join(import.meta.dirname, '../..'),
    maxBuffer: 16 * 1024 * 1024,
  });
  const sets = stdout.split(/^=== Requirement set /m).slice(1);
  expect(sets.map((s) => s.slice(0, 10))).toEqual(Object.keys(MUST_PASS));
  for (const set of sets) {
    for (const scenario of MUST_PASS[set.slice(0, 10)]!) {
      expect(set).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
    expect(set).toContain('Baseline check passed');
  }
}, 300_000);
