import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Vitest global setup: compiles src/ to dist/ once per run, so that every test spawning the
 * `toolgate` command (bin/toolgate.mjs runs dist/) exercises the sources under test, not a stale build.
 */
export default function buildDist(): void {
  const root = join(import.meta.dirname, '../..');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
