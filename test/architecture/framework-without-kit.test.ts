import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type ImportSite, importSites, sourceFiles } from './import-sites.ts';

/** The framework package's sources: the simulation kit is the package @toolgate/simulation. */
const SRC = join(import.meta.dirname, '../../packages/toolgate/src');

const KIT = '@toolgate/simulation';
/** Where loading the kit (a dynamic import, or a type-only import) is allowed: the CLI and the test gateway. */
const MAY_LOAD_KIT = ['cli/', 'testing/'];
/** Demo concepts the framework has no name for. */
const DEMO_NAMES = ['DemoPrincipal', 'DemoIntroduction', 'SimulationHooks', 'resetWorld'];
/** Framework files that may still name them, and why; each must still need it. */
const NAME_ALLOWANCES: Record<string, string> = {
  'testing/test-gateway.ts':
    "types startTestGateway's `principals` option by the kit's type (type-only import)",
};

/** Why an import by this framework file breaks the rule; null when it keeps it. */
function kitImportProblem(file: string, site: ImportSite): string | null {
  if (site.specifier !== KIT && !site.specifier.startsWith(`${KIT}/`)) return null;
  if (site.specifier !== KIT)
    return `${file} imports ${site.specifier}: only the kit's entry ${KIT} may be reached`;
  if (site.form === 'static') return `${file} imports the kit statically: use import('${KIT}')`;
  if (!MAY_LOAD_KIT.some((folder) => file.startsWith(folder)))
    return `${file} reaches the kit: only ${MAY_LOAD_KIT.join(', ')} may load it`;
  return null;
}

function frameworkFiles(): { file: string; text: string }[] {
  return sourceFiles(SRC).map((path) => ({ file: relative(SRC, path), text: readFileSync(path, 'utf8') }));
}

describe('the framework knows nothing of the simulation kit or the demo', () => {
  test('no framework file imports the kit, except the CLI and test gateway loading its entry', () => {
    const problems = frameworkFiles().flatMap(({ file, text }) =>
      importSites(text).flatMap((site) => kitImportProblem(file, site) ?? []),
    );
    expect(problems).toEqual([]);
  });

  test('the CLI and the test gateway do load it (the rule sees the imports it allows)', () => {
    const loading = frameworkFiles().filter(({ text }) =>
      importSites(text).some((site) => site.specifier === KIT && site.form === 'dynamic'),
    );
    expect(loading.map(({ file }) => file)).toEqual(['testing/simulation-kit.ts']);
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

  test('the checks see what they judge: a static import, a deep one, a dynamic one elsewhere, the entry from the CLI', () => {
    const cli = 'cli/example.ts';
    const problems = (file: string, text: string) => importSites(text).map((s) => kitImportProblem(file, s));
    expect(problems(cli, "import { FaultInjector } from '@toolgate/simulation/faults';")[0]).toMatch(
      /only the kit's entry/,
    );
    expect(problems(cli, "import { simulationOf } from '@toolgate/simulation';")[0]).toMatch(/statically/);
    expect(problems(cli, "import type {\n  DemoPrincipal,\n} from '@toolgate/simulation';")).toEqual([null]);
    expect(problems(cli, "const kit = await import('@toolgate/simulation');")).toEqual([null]);
    expect(problems('app/example.ts', "await import('@toolgate/simulation');")[0]).toMatch(/only cli\//);
    expect(problems('app/example.ts', "import { clock } from './clock.ts';")).toEqual([null]);
  });
});
