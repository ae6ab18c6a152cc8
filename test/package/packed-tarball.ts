import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
/** What `npm pack` needs from a checkout: the package's files and what builds them. */
const SOURCES = [
  'package.json',
  'README.md',
  'bin',
  'scripts',
  'src',
  'templates',
  'tsconfig.json',
  'tsconfig.build.json',
];
export const NPM_ENV = { ...process.env, npm_config_update_notifier: 'false' };

function hashTree(hash: ReturnType<typeof createHash>, path: string, name: string): void {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashTree(hash, join(path, entry), `${name}/${entry}`);
    return;
  }
  hash.update(`${name}\0`).update(readFileSync(path)).update('\0');
}

/** A digest of every file the tarball is built from: the same sources give the same tarball. */
function sourcesDigest(): string {
  const hash = createHash('sha256');
  for (const entry of SOURCES) hashTree(hash, join(ROOT, entry), entry);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The tarball `npm pack` makes of this checkout, packed once per state of its sources and shared by
 * every package test (packing builds dist/ and takes most of a minute). It is packed as a release is,
 * lifecycle scripts included, in a copy of the sources without dist/, so that its build proves
 * `npm pack` builds and this checkout's dist/ stays the other tests'.
 */
export function packedTarball(): string {
  const cache = join(tmpdir(), 'toolgate-packed', sourcesDigest());
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const tarball = join(cache, `toolgate-${version}.tgz`);
  if (existsSync(tarball)) return tarball;
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, 'pack-'));
  const checkout = join(work, 'checkout');
  try {
    mkdirSync(checkout);
    for (const entry of SOURCES) cpSync(join(ROOT, entry), join(checkout, entry), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
        cwd: checkout,
        encoding: 'utf8',
        env: NPM_ENV,
      }),
    ) as { filename: string }[];
    // postpack must put the manifest back as it was, scripts and all.
    if (
      readFileSync(join(checkout, 'package.json'), 'utf8') !==
      readFileSync(join(ROOT, 'package.json'), 'utf8')
    )
      throw new Error('npm pack left package.json changed');
    // A rename is atomic: a test packing at the same time reads one whole tarball or the other.
    renameSync(join(work, packed!.filename), tarball);
  } finally {
    // The link first: removing the copy must never reach into this checkout's node_modules.
    rmSync(join(checkout, 'node_modules'), { force: true });
    rmSync(work, { recursive: true, force: true });
  }
  return tarball;
}
