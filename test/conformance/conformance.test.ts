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

/**
 * The one run of the suite, in `npm test` and so in CI (`.ci/run` does not run `npm run conformance`
 * besides): the script's exit code (a failure not listed as expected, or a listed one that passes) and
 * the scenarios that must pass outright. On a failure the suite's own report is the message.
 */
test('both MCP conformance requirement sets pass every scenario that applies to a tools-only server', async () => {
  const { code, stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
    cwd: join(import.meta.dirname, '../..'),
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (failed: { code: number; stdout: string }) => ({ code: failed.code, stdout: failed.stdout }),
  );
  expect(code, `npm run conformance failed:\n${stdout}`).toBe(0);
  const sets = stdout.split(/^=== Requirement set /m).slice(1);
  expect(sets.map((s) => s.slice(0, 10))).toEqual(Object.keys(MUST_PASS));
  for (const set of sets) {
    for (const scenario of MUST_PASS[set.slice(0, 10)]!) {
      expect(set).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
    expect(set).toContain('Baseline check passed');
  }
}, 300_000);
