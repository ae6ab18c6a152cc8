import { join } from 'node:path';
import { runCommand } from '../../../../test/support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../../../..');

/** `toolgate eval` of the lamps module against its own scenarios, from the repository root, with `extra`. */
export function evalLamps(extra: readonly string[], env: Record<string, string> = {}) {
  return runCommand(
    join(ROOT, 'bin/toolgate.mjs'),
    [
      'eval',
      '--config',
      'packages/eval/test/support/lamps.config.ts',
      '--scenarios',
      'packages/eval/test/scenarios',
      '--no-progress',
      ...extra,
    ],
    { cwd: ROOT, env },
  );
}
