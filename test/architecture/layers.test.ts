import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

/** The framework package's sources; the kit, the domains and the harness are packages of their own. */
const SRC = join(import.meta.dirname, '../../packages/toolgate/src');

/**
 * The folders of the framework room, lowest first: each may import only itself and the folders before
 * it, so that folder imports form no cycle. The files at its top (`index.ts`, `server.ts`) sit above them all.
 */
const FRAMEWORK_ORDER = [
  'time',
  'auth',
  'store',
  'telemetry',
  'policy',
  'contract',
  'operations',
  'exceptions',
  'gateway',
  'backend',
  'tasks',
  'app',
  'transport',
  'operator',
  'console',
  'contract-artifacts',
  'config',
  'extensions',
  'index.ts',
  'server.ts',
] as const;

/**
 * The rooms of the framework package, arrows down: each may import only from its own room and the
 * rooms below it. The other packages sit above it and reach it by name (package-boundaries.test.ts).
 */
const LAYERS = {
  framework: FRAMEWORK_ORDER,
  testing: ['testing', 'testing.ts'],
  cli: ['cli'],
} as const;
type Layer = keyof typeof LAYERS;
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  framework: ['framework'],
  testing: ['framework', 'testing'],
  cli: ['framework', 'testing', 'cli'],
};

/** "from imports to" for each import of a folder that the order puts above the importer (or does not name). */
function upwardImports(edges: readonly (readonly [string, string])[], order: readonly string[]): string[] {
  const rank = (folder: string) => {
    const at = order.indexOf(folder);
    if (at < 0) throw new Error(`${folder} has no place in the order; add it to FRAMEWORK_ORDER`);
    return at;
  };
  return edges.filter(([from, to]) => rank(to) > rank(from)).map(([from, to]) => `${from} imports ${to}`);
}

function layerOf(file: string): Layer {
  const first = relative(SRC, file).split('/')[0]!;
  const found = (Object.keys(LAYERS) as Layer[]).find((layer) =>
    (LAYERS[layer] as readonly string[]).includes(first),
  );
  if (!found) throw new Error(`${first} belongs to no layer; add it to LAYERS`);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative specifiers of static and dynamic imports (type-only imports count: they are dependencies too). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  // Outside src/ is only the package manifest (read for the version), which belongs to every layer.
  return specifiers.map((s) => resolve(dirname(file), s)).filter((target) => target.startsWith(SRC));
}

describe('the layers of the framework package', () => {
  test('the framework imports nothing from the test gateway or the CLI; the test gateway nothing from the CLI', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = layerOf(file);
      for (const target of importsOf(file)) {
        const to = layerOf(target);
        if (!MAY_IMPORT[from].includes(to)) {
          violations.push(`${relative(SRC, file)} (${from}) imports ${relative(SRC, target)} (${to})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  test('each folder of the framework imports only the folders below it: folder imports form no cycle', () => {
    const edges = new Map<string, readonly [string, string]>();
    const sites = new Map<string, string>();
    for (const file of sourceFiles(SRC).filter((f) => layerOf(f) === 'framework')) {
      const from = relative(SRC, file).split('/')[0]!;
      for (const target of importsOf(file)) {
        const to = relative(SRC, target).split('/')[0]!;
        if (to === from || layerOf(target) !== 'framework') continue;
        edges.set(`${from} ${to}`, [from, to]);
        sites.set(`${from} imports ${to}`, `${relative(SRC, file)} -> ${relative(SRC, target)}`);
      }
    }
    const upward = upwardImports([...edges.values()], FRAMEWORK_ORDER);
    expect(upward.map((edge) => `${edge} (${sites.get(edge)})`)).toEqual([]);
  });

  test('the folder check fails on a cycle and on a folder the order does not place', () => {
    const order = ['store', 'operations', 'gateway'];
    expect(
      upwardImports(
        [
          ['gateway', 'operations'],
          ['operations', 'store'],
        ],
        order,
      ),
    ).toEqual([]);
    expect(
      upwardImports(
        [
          ['gateway', 'operations'],
          ['operations', 'gateway'],
        ],
        order,
      ),
    ).toEqual(['operations imports gateway']);
    expect(() => upwardImports([['gateway', 'somewhere']], order)).toThrow(/no place in the order/);
  });

  test('the check sees real imports (the test gateway importing the framework is found)', () => {
    const testGateway = join(SRC, 'testing/test-gateway.ts');
    expect(importsOf(testGateway).map((f) => layerOf(f))).toContain('framework');
    expect(() => layerOf(join(SRC, 'somewhere/new.ts'))).toThrow(/belongs to no layer/);
  });
});
