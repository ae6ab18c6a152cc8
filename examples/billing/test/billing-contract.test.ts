import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

test('the billing tools pass the readiness checklist (toolgate lint --config)', () => {
  const report = execFileSync(
    process.execPath,
    [join(ROOT, 'bin/toolgate.mjs'), 'lint', '--config', join(ROOT, 'examples/billing/toolgate.config.ts')],
    { encoding: 'utf8' },
  );
  expect(report).toContain('4 tool(s) checked');
  expect(report).toContain('0 error(s), 0 warning(s)');
});
