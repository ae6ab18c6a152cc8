import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Vitest global setup: compiles src/ to dist/ once per run, so that every test spawning the
 * `toolgate` command (bin/toolgate.mjs runs dist/) exercises the sources under test, not a stale build.
 * Type errors do not stop the emit (`npm run check` reports them); they are only echoed here.
 */
export default function buildDist(): void {
  const root = join(import.meta.dirname, '../..');
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0)
    process.stderr.write(`build-dist: tsc reported problems:\n${build.stdout}${build.stderr}`);
}
