import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { importSites, sourceFiles } from './import-sites.ts';

const ROOT = join(import.meta.dirname, '../..');
const PACKAGES = join(ROOT, 'packages');

interface Manifest {
  readonly name: string;
  readonly exports: Record<string, unknown>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/** Each workspace package by folder: its manifest. */
const manifests = new Map(
  readdirSync(PACKAGES).map((folder) => [
    folder,
    JSON.parse(readFileSync(join(PACKAGES, folder, 'package.json'), 'utf8')) as Manifest,
  ]),
);
const folderOf = new Map([...manifests].map(([folder, m]) => [m.name, folder]));

/**
 * Arrows down, between packages, in every form of import (static, type-only, dynamic): the framework
 * imports none of ours; the kit the framework; the demo and the harness the framework and the kit.
 * What the framework runs of them it gets through its extension interface (docs/extensions.md).
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  toolgate: [],
  simulation: ['toolgate'],
  domains: ['toolgate', 'simulation'],
  eval: ['toolgate', 'simulation'],
};

/** The package a bare specifier names ("@scope/name/sub" -> "@scope/name"). */
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
const isBuiltin = (specifier: string) =>
  specifier.startsWith('node:') || builtinModules.includes(packageName(specifier));

/** Why one import of a file of packages/<folder> breaks the package boundaries; null when it keeps them. */
function boundaryProblem(
  folder: string,
  file: string,
  specifier: string,
  form: 'static' | 'type' | 'dynamic',
): string | null {
  const own = join(PACKAGES, folder);
  if (isAbsolute(specifier) || specifier.startsWith('file:'))
    return `${file} imports ${specifier} by an absolute path`;
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(join(ROOT, file)), specifier);
    if (target.startsWith(`${own}/`)) return null;
    return `${file} imports ${relative(ROOT, target)} by path: import the package by name`;
  }
  if (isBuiltin(specifier)) return null;
  const name = packageName(specifier);
  const manifest = manifests.get(folder)!;
  if (!(name in { ...manifest.dependencies, ...manifest.peerDependencies }))
    return `${file} imports ${name}, which packages/${folder}/package.json does not list`;
  const target = folderOf.get(name);
  if (target === undefined) return null;
  const subpath = `.${specifier.slice(name.length)}`;
  if (!(subpath in manifests.get(target)!.exports))
    return `${file} imports ${specifier}: ${name} exports no ${subpath}`;
  if (!MAY_IMPORT[folder]!.includes(target))
    return `${file} imports ${name}${form === 'static' ? '' : ` (${form})`}: packages/${folder} may not import packages/${target}`;
  return null;
}

function problemsIn(folder: string): string[] {
  const src = join(PACKAGES, folder, 'src');
  return sourceFiles(src).flatMap((path) => {
    const file = relative(ROOT, path);
    return importSites(readFileSync(path, 'utf8')).flatMap(
      ({ specifier, form }) => boundaryProblem(folder, file, specifier, form) ?? [],
    );
  });
}

describe('each package reaches the others only by name, through their exports', () => {
  test('the four packages are there, each with an exports map', () => {
    expect([...manifests.keys()].sort()).toEqual(['domains', 'eval', 'simulation', 'toolgate']);
    for (const manifest of manifests.values()) expect(Object.keys(manifest.exports)).toContain('.');
  });

  test.each([...manifests.keys()])(
    'packages/%s: no path into another package, only exported subpaths, every package listed',
    (folder) => {
      expect(problemsIn(folder)).toEqual([]);
    },
  );

  test('the rule sees what it forbids', () => {
    const file = 'packages/domains/src/orders/x.ts';
    const problem = (specifier: string, form: 'static' | 'type' | 'dynamic' = 'static') =>
      boundaryProblem('domains', file, specifier, form);
    expect(problem('../../../toolgate/src/app/create-app.ts')).toMatch(/by path/);
    expect(problem('/work/toolgate/packages/toolgate/src/index.ts')).toMatch(/absolute path/);
    expect(problem('toolgate/src/app/create-app.ts')).toMatch(/exports no \.\/src\/app\/create-app\.ts/);
    expect(problem('@toolgate/simulation/faults')).toMatch(/exports no \.\/faults/);
    expect(problem('@toolgate/eval', 'type')).toMatch(/does not list/);
    expect(problem('hono')).toMatch(/does not list/);
    expect(boundaryProblem('simulation', 'packages/simulation/src/x.ts', 'toolgate/server', 'static')).toBe(
      null,
    );
    expect(boundaryProblem('eval', 'packages/eval/src/x.ts', 'toolgate/testing', 'static')).toBe(null);
    expect(
      boundaryProblem('simulation', 'packages/simulation/src/x.ts', 'toolgate/internal', 'static'),
    ).toMatch(/exports no \.\/internal/);
    expect(boundaryProblem('toolgate', 'packages/toolgate/src/x.ts', '@toolgate/eval', 'static')).toMatch(
      /does not list/,
    );
    expect(boundaryProblem('simulation', 'packages/simulation/src/x.ts', '@toolgate/eval', 'type')).toMatch(
      /does not list/,
    );
    expect(boundaryProblem('domains', 'packages/domains/src/x.ts', '@toolgate/simulation', 'dynamic')).toBe(
      null,
    );
    expect(boundaryProblem('toolgate', 'packages/toolgate/src/x.ts', '@toolgate/eval', 'dynamic')).toMatch(
      /does not list/,
    );
    expect(
      boundaryProblem('simulation', 'packages/simulation/src/x.ts', '@toolgate/domains', 'type'),
    ).toMatch(/does not list/);
    expect(problem('./systems/carrier/simulated-carrier.ts')).toBe(null);
    expect(problem('node:fs')).toBe(null);
    expect(problem('zod')).toBe(null);
  });
});

describe('toolgate/internal is gone: what it carried is in the documented entries', () => {
  /** Every TypeScript file of the repository a program or a test is written in. */
  const repositoryFiles = () =>
    [
      // Each package's sources and its own suites.
      ...[...manifests.keys()].flatMap((folder) => ['src', 'test'].map((dir) => join(PACKAGES, folder, dir))),
      'test',
      'bench',
      'examples',
    ]
      .map((dir) => resolve(ROOT, dir))
      .flatMap((dir) => sourceFiles(dir))
      .filter((path) => !path.includes('/node_modules/'));

  test('no package, test, bench or example imports it, and the framework exports no ./internal', () => {
    const importing = repositoryFiles().flatMap((path) =>
      importSites(readFileSync(path, 'utf8'))
        .filter(
          ({ specifier }) => specifier === 'toolgate/internal' || specifier.startsWith('toolgate/internal/'),
        )
        .map(({ form }) => `${relative(ROOT, path)} (${form})`),
    );
    expect(importing).toEqual([]);
    expect(Object.keys(manifests.get('toolgate')!.exports).sort()).toEqual([
      '.',
      './package.json',
      './server',
      './testing',
    ]);
  });

  test('the scan sees the files that import the framework (the rule reads the imports it forbids)', () => {
    const serverImporters = repositoryFiles().filter((path) =>
      importSites(readFileSync(path, 'utf8')).some(({ specifier }) => specifier === 'toolgate/server'),
    );
    expect(serverImporters.map((path) => relative(ROOT, path))).toEqual(
      expect.arrayContaining(['packages/eval/src/in-process-world.ts', 'bench/bench-server.ts']),
    );
  });
});

describe('a private door is a compile error', () => {
  // Inside node_modules so that the probe resolves the workspace packages as any file of the repository does.
  const probeDir = join(ROOT, 'node_modules/.cache', `toolgate-boundaries-${process.pid}`);
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

  test('the type check refuses a deep import of a package or the removed toolgate/internal, and accepts the exported entries', () => {
    mkdirSync(probeDir, { recursive: true });
    writeFileSync(
      join(probeDir, 'probe.ts'),
      [
        "import { createApp } from 'toolgate/server';",
        "import { FaultInjector } from '@toolgate/simulation';",
        "import { openDatabase } from 'toolgate/src/store/open-database.ts';",
        "import { FAULT_KINDS } from '@toolgate/simulation/src/faults.ts';",
        "import { mintToken } from 'toolgate/internal';",
        'export const used = [createApp, FaultInjector, openDatabase, FAULT_KINDS, mintToken];',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(probeDir, 'tsconfig.json'),
      JSON.stringify({ extends: relative(probeDir, join(ROOT, 'tsconfig.json')), include: ['probe.ts'] }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', probeDir], {
      encoding: 'utf8',
    });
    const errors = tsc.stdout.split('\n').filter((line) => line.includes('error TS'));
    expect(errors.map((line) => /probe\.ts\((\d+),/.exec(line)?.[1])).toEqual(['3', '4', '5']);
    expect(
      errors.every((line) => /TS2307/.test(line)),
      errors.join('\n'),
    ).toBe(true);
  }, 60_000);
});
