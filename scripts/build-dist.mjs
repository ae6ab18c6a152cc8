// `npm run build`: compiles src/ to dist/ (tsconfig.build.json) and records in dist/ a digest of what it
// compiled. `--if-stale` (the test setup) compiles only when dist/ holds another digest, so a test run
// after `npm run build` does not compile the same sources again; it compiles over dist/ in place.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');
/** Not packed (package.json "files"): it describes this checkout's build, not the package. */
const STAMP = join(DIST, '.sources-digest');
/** Everything the compiled output depends on: the sources, the compiler options, the compiler. */
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'node_modules/typescript/package.json'];

function hashTree(hash, path, name) {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashTree(hash, join(path, entry), `${name}/${entry}`);
    return;
  }
  hash.update(`${name}\0`).update(readFileSync(path)).update('\0');
}

function inputsDigest() {
  const hash = createHash('sha256');
  for (const input of INPUTS) hashTree(hash, join(ROOT, input), input);
  return hash.digest('hex');
}

const ifStale = process.argv.includes('--if-stale');
const digest = inputsDigest();
if (ifStale && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === digest) process.exit(0);
if (!ifStale) rmSync(DIST, { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')],
  { cwd: ROOT, stdio: 'inherit' },
);
// Only a clean compile is recorded: after type errors the next test run compiles (and reports) again.
if (tsc.status === 0) writeFileSync(STAMP, digest);
process.exit(tsc.status ?? 1);
