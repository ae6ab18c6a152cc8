import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type ImportSite, importSites, sourceFiles } from './import-sites.ts';

/** The framework package's sources: the kit, the demo and the harness plug in as extensions. */
const SRC = join(import.meta.dirname, '../../packages/toolgate/src');

/** Demo and kit concepts the framework has no name for. */
const DEMO_NAMES = ['DemoPrincipal', 'DemoIntroduction', 'SimulationHooks', 'resetWorld', 'simulationOf'];

/** Why an import by a framework file breaks the rule; null when it keeps it. */
function workspaceImportProblem(file: string, site: ImportSite): string | null {
  if (!site.specifier.startsWith('@toolgate/')) return null;
  return `${file} imports ${site.specifier} (${site.form}): the framework names no other package of ours; define an interface they implement (docs/extensions.md)`;
}

function frameworkFiles(): { file: string; text: string }[] {
  return sourceFiles(SRC).map((path) => ({ file: relative(SRC, path), text: readFileSync(path, 'utf8') }));
}

describe('the framework knows nothing of the simulation kit, the demo or the harness', () => {
  test('no framework file imports a package of ours: not statically, not for types, not dynamically', () => {
    const problems = frameworkFiles().flatMap(({ file, text }) =>
      importSites(text).flatMap((site) => workspaceImportProblem(file, site) ?? []),
    );
    expect(problems).toEqual([]);
  });

  test('no framework file names a demo or kit concept', () => {
    const naming = frameworkFiles().flatMap(({ file, text }) => {
      const names = DEMO_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
      return names.length > 0 ? [`${file}: ${names.join(', ')}`] : [];
    });
    expect(naming).toEqual([]);
  });

  test("the framework's manifest lists none of them, not even as an optional peer", () => {
    const manifest = JSON.parse(readFileSync(join(SRC, '../package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >;
    const listed = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'].flatMap(
      (field) => Object.keys(manifest[field] ?? {}).filter((name) => name.startsWith('@toolgate/')),
    );
    expect(listed).toEqual([]);
  });

  test('the check sees every form of import', () => {
    const problems = (text: string) => importSites(text).map((s) => workspaceImportProblem('cli/x.ts', s));
    expect(problems("import { simulationOf } from '@toolgate/simulation';")[0]).toMatch(/\(static\)/);
    expect(problems("import type {\n  DemoPrincipal,\n} from '@toolgate/simulation';")[0]).toMatch(
      /\(type\)/,
    );
    expect(problems("const kit = await import('@toolgate/eval');")[0]).toMatch(/\(dynamic\)/);
    expect(problems("type Kit = typeof import('@toolgate/simulation');")[0]).toMatch(/\(dynamic\)/);
    expect(problems('await import("@toolgate/domains");')[0]).toMatch(/\(dynamic\)/);
    expect(problems("require.resolve('@toolgate/eval/package.json');")[0]).toMatch(/\(dynamic\)/);
    expect(problems("import { clock } from './clock.ts';")).toEqual([null]);
    expect(problems("import { z } from 'zod';")).toEqual([null]);
  });
});
