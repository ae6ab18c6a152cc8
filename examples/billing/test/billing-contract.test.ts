import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { linkToolgatePackage } from './billing-stack.ts';

const EXAMPLE_DIR = join(import.meta.dirname, '..');

test('the billing tools pass the readiness checklist (toolgate lint, finding ./toolgate.config.ts)', () => {
  linkToolgatePackage();
  // The installed package's command, run where the project is: it lints the config it finds there.
  const report = execFileSync(
    process.execPath,
    [join(EXAMPLE_DIR, 'node_modules/toolgate/bin/toolgate.mjs'), 'lint'],
    {
      cwd: EXAMPLE_DIR,
      encoding: 'utf8',
    },
  );
  expect(report).toContain('4 tool(s) checked');
  expect(report).toContain('0 error(s), 0 warning(s)');
});
