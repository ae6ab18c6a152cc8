import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Vitest global setup: compiles each workspace package's src/ to its dist/ when that dist/ was not
 * compiled from the sources as they are (scripts/build-dist.mjs keeps their digest in dist/), so that
 * every test spawning the `toolgate` command (bin/toolgate.mjs runs the packages' dist/) exercises the
 * sources under test, not a stale build, and a run right after `npm run build` compiles nothing. The
 * compile does not type-check (`npm run check` does); what it reports is only echoed here.
 */
export default function buildDist(): void {
  const root = join(import.meta.dirname, '../..');
  const build = spawnSync(process.execPath, [join(root, 'scripts/build-dist.mjs'), '--if-stale'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0)
    process.stderr.write(`build-dist: tsc reported problems:\n${build.stdout}${build.stderr}`);
}
