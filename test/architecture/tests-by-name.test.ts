import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importSites } from './import-sites.ts';

const ROOT = join(import.meta.dirname, '../..');
const PACKAGES = readdirSync(join(ROOT, 'packages'));

/** Every folder a test of the repository is written in (vitest.config.ts runs them all). */
const TEST_ROOTS = [
  'test',
  'docs/examples',
  ...readdirSync(join(ROOT, 'examples')).map((name) => `examples/${name}/test`),
  ...PACKAGES.map((folder) => `packages/${folder}/test`),
  ...readdirSync(join(ROOT, 'packages/toolgate/templates')).map(
    (name) => `packages/toolgate/templates/${name}/test`,
  ),
].filter((dir) => existsSync(join(ROOT, dir)));

/** The TypeScript files under a folder of the repository (its path from the root), installed packages aside. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path);
    return /\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

/** The package whose own suites a file is part of (packages/<folder>/test/...), if any. */
const suiteOwner = (file: string) => /^packages\/([^/]+)\/test\//.exec(file)?.[1] ?? null;

/**
 * The sources of a package a file reaches by a relative path, as `<folder>: <path from the root>`, in
 * every form of import (static, type-only, dynamic): the packages' own suites reaching their own src/
 * aside, which is the package's own business. A name (`toolgate/server`, `@toolgate/simulation`) goes
 * through the package's exports and is no path.
 */
function sourcesReachedByPath(file: string, text: string): string[] {
  const owner = suiteOwner(file);
  return importSites(text).flatMap(({ specifier }) => {
    if (!specifier.startsWith('.')) return [];
    const target = relative(ROOT, resolve(dirname(join(ROOT, file)), specifier));
    const folder = /^packages\/([^/]+)\/src\//.exec(target)?.[1];
    return folder === undefined || folder === owner ? [] : [`${folder}: ${target}`];
  });
}

const testFiles = TEST_ROOTS.flatMap(filesUnder).filter((file) => /\.test\.m?ts$/.test(file));
const reachedBy = (file: string) => sourcesReachedByPath(file, readFileSync(join(ROOT, file), 'utf8'));

describe('tests import the packages by name; a package tests its internals in its own test/', () => {
  test('the scan finds the tests of every place they are written, the packages’ own suites among them', () => {
    expect(testFiles.length).toBeGreaterThan(200);
    for (const folder of PACKAGES)
      expect(
        testFiles.filter((file) => file.startsWith(`packages/${folder}/test/`)).length,
        folder,
      ).toBeGreaterThan(2);
    expect(testFiles.some((file) => file.startsWith('examples/'))).toBe(true);
    expect(testFiles.some((file) => file.startsWith('docs/examples/'))).toBe(true);
    expect(testFiles.some((file) => file.startsWith('packages/toolgate/templates/'))).toBe(true);
  });

  test("at most a tenth of the tests reach a package's sources by a path from outside it", () => {
    const byPath = testFiles.filter((file) => reachedBy(file).length > 0);
    // Listed, so that a failure says which tests to move into their package or to rewrite by name.
    expect(byPath.length, byPath.join('\n')).toBeLessThanOrEqual(Math.floor(testFiles.length / 10));
  });

  test("no file of a package's suites reaches another package's sources by path", () => {
    const suiteFiles = PACKAGES.flatMap((folder) =>
      existsSync(join(ROOT, 'packages', folder, 'test')) ? filesUnder(`packages/${folder}/test`) : [],
    );
    expect(suiteFiles.length).toBeGreaterThan(100);
    expect(suiteFiles.flatMap((file) => reachedBy(file).map((reached) => `${file} -> ${reached}`))).toEqual(
      [],
    );
  });

  test('the scan sees every form of import it counts, and nothing else', () => {
    // The paths spliced in, so that this file's own text reaches no package's sources.
    const [UP, UP3] = ['../..', '../../..'];
    const outside = 'test/operations/x.test.ts';
    const own = 'packages/toolgate/test/operations/x.test.ts';
    const reached = (file: string, text: string) => sourcesReachedByPath(file, text);
    const store = 'toolgate: packages/toolgate/src/store/open-database.ts';
    expect(
      reached(outside, `import { openDatabase } from '${UP}/packages/toolgate/src/store/open-database.ts';`),
    ).toEqual([store]);
    expect(
      reached(
        outside,
        `import type {\n  SqlDatabase,\n} from '${UP}/packages/toolgate/src/store/sql-database.ts';`,
      ),
    ).toEqual(['toolgate: packages/toolgate/src/store/sql-database.ts']);
    expect(
      reached(
        outside,
        `const { openDatabase } = await import('${UP}/packages/toolgate/src/store/open-database.ts');`,
      ),
    ).toEqual([store]);
    expect(
      reached(outside, `export { openDatabase } from '${UP}/packages/toolgate/src/store/open-database.ts';`),
    ).toEqual([store]);
    expect(
      reached('docs/examples/x.test.ts', `import { f } from '${UP}/packages/eval/src/index.ts';`),
    ).toEqual(['eval: packages/eval/src/index.ts']);
    // A package's own suite reaches its own sources freely, never another's.
    expect(reached(own, `import { openDatabase } from '${UP}/src/store/open-database.ts';`)).toEqual([]);
    expect(reached(own, `import { FaultInjector } from '${UP3}/simulation/src/faults.ts';`)).toEqual([
      'simulation: packages/simulation/src/faults.ts',
    ]);
    // A template's test is no suite of the framework: it takes the framework by name like any project.
    expect(
      reached('packages/toolgate/templates/init/test/x.test.ts', `import { x } from '${UP3}/src/index.ts';`),
    ).toEqual(['toolgate: packages/toolgate/src/index.ts']);
    // Names, test support and the packages' test folders are no path into a package's sources.
    expect(reached(outside, "import { createApp } from 'toolgate/server';")).toEqual([]);
    expect(reached(outside, "import { FaultInjector } from '@toolgate/simulation';")).toEqual([]);
    expect(reached(outside, `import { startGateway } from '${'..'}/support/start-gateway.ts';`)).toEqual([]);
    expect(reached(outside, `import { h } from '${UP}/packages/domains/test/orders/orders-app.ts';`)).toEqual(
      [],
    );
  });
});
