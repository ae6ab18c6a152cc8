// `npm run build`: compiles each workspace package's src/ to its dist/ (its tsconfig.build.json), in
// dependency order, and records in each dist/ a digest of what it compiled. `--if-stale` (the test
// setup, `npm pack`) compiles only the packages whose dist/ holds another digest, so a test run after
// `npm run build` compiles nothing again; it compiles over dist/ in place. The compile emits without
// type checking (noCheck): `npm run check` is the one type check, of every package at once.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
/** Each package after the packages it imports: the framework, the kit, the demo, the harness. */
const PACKAGES = ['toolgate', 'simulation', 'domains', 'eval'];
/** What every package's output depends on besides its own sources: the shared options, the compiler. */
const SHARED = ['tsconfig.json', 'node_modules/typescript/package.json'];

function hashTree(hash, path, name) {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashTree(hash, join(path, entry), `${name}/${entry}`);
    return;
  }
  hash.update(`${name}\0`).update(readFileSync(path)).update('\0');
}

const ifStale = process.argv.includes('--if-stale');
let status = 0;
/** A package's digest covers the packages built before it: their declarations are its input. */
let upstream = '';
for (const name of PACKAGES) {
  const dir = join(ROOT, 'packages', name);
  const dist = join(dir, 'dist');
  /** Not packed (package.json "files"): it describes this checkout's build, not the package. */
  const stamp = join(dist, '.sources-digest');
  const hash = createHash('sha256').update(upstream);
  for (const input of ['src', 'tsconfig.build.json']) hashTree(hash, join(dir, input), input);
  for (const input of SHARED) hashTree(hash, join(ROOT, input), input);
  const digest = hash.digest('hex');
  upstream = digest;
  if (ifStale && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) continue;
  if (!ifStale) rmSync(dist, { recursive: true, force: true });
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.build.json')],
    { cwd: dir, stdio: 'inherit' },
  );
  // Only a clean compile is recorded: after errors the next run compiles (and reports) again.
  if (tsc.status === 0) writeFileSync(stamp, digest);
  else status = tsc.status ?? 1;
}
process.exit(status);
