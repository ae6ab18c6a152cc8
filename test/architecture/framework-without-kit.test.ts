import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/** Folders that are not the framework: the simulation kit, the reference domains, the evaluation harness. */
const NOT_FRAMEWORK = ['domains/', 'eval/', 'external/'];
const KIT = 'external/';
/** The one file of the kit the framework may reach, and only by a dynamic import(). */
const KIT_ENTRY = 'external/index.ts';
/** Where that dynamic import (or a type-only import of the entry) is allowed: the CLI and the test gateway. */
const MAY_LOAD_KIT = ['cli/', 'testing/'];
/**
 * The public `toolgate/testing` entry re-exports the kit (fault injector, effects ledger, simulation
 * hooks): until the kit is published as a package of its own, it is the kit's public door.
 */
const KIT_REEXPORTS = 'testing.ts';
/** Demo concepts the framework has no name for. */
const DEMO_NAMES = ['DemoPrincipal', 'DemoIntroduction', 'SimulationHooks', 'resetWorld'];
/** Framework files that may still name them, and why; each must still need it. */
const NAME_ALLOWANCES: Record<string, string> = {
  'testing.ts': 're-exports the kit types as part of toolgate/testing',
  'testing/test-gateway.ts':
    "types startTestGateway's `principals` option by the kit's type (type-only import)",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface ImportSite {
  readonly target: string;
  readonly kind: 'static' | 'type-only' | 'dynamic';
}

/** Every relative import of a source text: static, type-only (import/export type) or dynamic import(). */
function importSites(file: string, text: string): ImportSite[] {
  const sites: ImportSite[] = [];
  const at = (specifier: string) => relative(SRC, resolve(dirname(join(SRC, file)), specifier));
  for (const m of text.matchAll(/\b(import|export)(\s+type)?\s[^;]*?\sfrom\s*'(\.{1,2}\/[^']+)'/g))
    sites.push({ target: at(m[3]!), kind: m[2] ? 'type-only' : 'static' });
  for (const m of text.matchAll(/^import\s*'(\.{1,2}\/[^']+)'/gm))
    sites.push({ target: at(m[1]!), kind: 'static' });
  for (const m of text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g))
    sites.push({ target: at(m[1]!), kind: 'dynamic' });
  return sites;
}

/** Why an import of the kit by this framework file breaks the rule; null when it keeps it. */
function kitImportProblem(file: string, site: ImportSite): string | null {
  if (!site.target.startsWith(KIT)) return null;
  if (file === KIT_REEXPORTS) return null;
  const mayLoad = MAY_LOAD_KIT.some((folder) => file.startsWith(folder));
  if (site.target !== KIT_ENTRY)
    return `${file} imports ${site.target} (${site.kind}): only ${KIT_ENTRY} may be reached`;
  if (site.kind === 'static') return `${file} imports the kit entry statically: use import('${KIT_ENTRY}')`;
  if (!mayLoad) return `${file} reaches the kit: only ${MAY_LOAD_KIT.join(', ')} may load it`;
  return null;
}

function frameworkFiles(): { file: string; text: string }[] {
  return sourceFiles(SRC)
    .map((path) => relative(SRC, path))
    .filter((file) => !NOT_FRAMEWORK.some((folder) => file.startsWith(folder)))
    .map((file) => ({ file, text: readFileSync(join(SRC, file), 'utf8') }));
}

describe('the framework knows nothing of the simulation kit or the demo', () => {
  test('no framework file imports src/external, except the CLI and test gateway loading its entry', () => {
    const problems = frameworkFiles().flatMap(({ file, text }) =>
      importSites(file, text).flatMap((site) => kitImportProblem(file, site) ?? []),
    );
    expect(problems).toEqual([]);
  });

  test('no framework file names a demo concept (beyond the allowances, each still needed)', () => {
    const naming = new Map<string, string[]>();
    for (const { file, text } of frameworkFiles()) {
      const names = DEMO_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
      if (names.length > 0) naming.set(file, names);
    }
    const unexplained = [...naming].filter(([file]) => !(file in NAME_ALLOWANCES));
    expect(unexplained).toEqual([]);
    expect(Object.keys(NAME_ALLOWANCES).filter((file) => !naming.has(file))).toEqual([]);
  });

  test('the checks see what they judge: a static import, a dynamic one elsewhere, the entry from the CLI', () => {
    const cli = 'cli/example.ts';
    const sites = (file: string, text: string) =>
      importSites(file, text).map((s) => kitImportProblem(file, s));
    expect(sites(cli, "import { FaultInjector } from '../external/faults.ts';")[0]).toMatch(
      /only external\/index/,
    );
    expect(sites(cli, "import { simulationOf } from '../external/index.ts';")[0]).toMatch(/statically/);
    expect(sites(cli, "import type {\n  DemoPrincipal,\n} from '../external/index.ts';")).toEqual([null]);
    expect(sites(cli, "const kit = await import('../external/index.ts');")).toEqual([null]);
    expect(sites('app/example.ts', "await import('../external/index.ts');")[0]).toMatch(/only cli\//);
    expect(sites('app/example.ts', "export { x } from '../external/faults.ts';")[0]).toMatch(
      /external\/faults/,
    );
    expect(sites('app/example.ts', "import { clock } from './clock.ts';")).toEqual([null]);
  });
});
