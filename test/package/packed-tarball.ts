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
/** What `npm pack` of the workspace packages needs from a checkout: their files and what builds them. */
const SOURCES = ['package.json', 'scripts', 'tsconfig.json', 'packages'];
/** The published packages, by folder, with the file name `npm pack` gives each. */
const PUBLISHED = {
  toolgate: 'toolgate',
  simulation: 'toolgate-simulation',
  eval: 'toolgate-eval',
} as const;
export type PublishedPackage = keyof typeof PUBLISHED;
export const NPM_ENV = { ...process.env, npm_config_update_notifier: 'false' };

/** Build output and installed packages are not sources. */
const isSource = (name: string) => name !== 'dist' && name !== 'node_modules' && !name.endsWith('.tgz');

function hashTree(hash: ReturnType<typeof createHash>, path: string, name: string): void {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).filter(isSource).sort())
      hashTree(hash, join(path, entry), `${name}/${entry}`);
    return;
  }
  hash.update(`${name}\0`).update(readFileSync(path)).update('\0');
}

/** A digest of every file the tarballs are built from: the same sources give the same tarballs. */
function sourcesDigest(): string {
  const hash = createHash('sha256');
  for (const entry of SOURCES) hashTree(hash, join(ROOT, entry), entry);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The checkout's node_modules for the copy: every installed package linked, except the workspace
 * packages, which are linked to the copy's own (as `npm install` links workspaces).
 */
function linkNodeModules(checkout: string): void {
  const modules = join(checkout, 'node_modules');
  mkdirSync(join(modules, '@toolgate'), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry === 'toolgate' || entry === '@toolgate') continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync('../packages/toolgate', join(modules, 'toolgate'), 'dir');
  for (const folder of ['simulation', 'domains', 'eval'])
    symlinkSync(`../../packages/${folder}`, join(modules, '@toolgate', folder), 'dir');
}

/**
 * The tarballs `npm pack` makes of this checkout's published packages (the framework, the simulation
 * kit, the evaluation harness), packed once per state of their sources and shared by every package
 * test (packing builds dist/ and takes most of a minute). They are packed as a release is, lifecycle
 * scripts included, in a copy of the sources without dist/, so that their build proves `npm pack`
 * builds and this checkout's dist/ stays the other tests'.
 */
export function packedTarballs(): Record<PublishedPackage, string> {
  const cache = join(tmpdir(), 'toolgate-packed', sourcesDigest());
  const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/toolgate/package.json'), 'utf8')) as {
    version: string;
  };
  const tarballs = Object.fromEntries(
    Object.entries(PUBLISHED).map(([folder, file]) => [folder, join(cache, `${file}-${version}.tgz`)]),
  ) as Record<PublishedPackage, string>;
  if (Object.values(tarballs).every((tarball) => existsSync(tarball))) return tarballs;
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, 'pack-'));
  const checkout = join(work, 'checkout');
  try {
    mkdirSync(checkout);
    for (const entry of SOURCES)
      cpSync(join(ROOT, entry), join(checkout, entry), {
        recursive: true,
        filter: (source) => isSource(source.split('/').pop()!),
      });
    linkNodeModules(checkout);
    const workspaces = Object.keys(PUBLISHED).flatMap((folder) => ['--workspace', `packages/${folder}`]);
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', work, ...workspaces], {
        cwd: checkout,
        encoding: 'utf8',
        env: NPM_ENV,
      }),
    ) as { filename: string }[];
    for (const folder of Object.keys(PUBLISHED)) {
      const manifest = `packages/${folder}/package.json`;
      // postpack must put each manifest back as it was, scripts and all.
      if (readFileSync(join(checkout, manifest), 'utf8') !== readFileSync(join(ROOT, manifest), 'utf8'))
        throw new Error(`npm pack left ${manifest} changed`);
    }
    // A rename is atomic: a test packing at the same time reads one whole tarball or the other.
    for (const { filename } of packed) renameSync(join(work, filename), join(cache, filename));
  } finally {
    // The links first: removing the copy must never reach into this checkout's node_modules.
    rmSync(join(checkout, 'node_modules'), { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
  return tarballs;
}

/** The framework's tarball (`toolgate`), the one a team installs first. */
export function packedTarball(): string {
  return packedTarballs().toolgate;
}
