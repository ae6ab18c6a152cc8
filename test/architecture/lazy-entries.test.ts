import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importSites, sourceFiles } from './import-sites.ts';

const PACKAGES = join(import.meta.dirname, '../../packages');

/**
 * The evaluation harness and the reference demo are packages an installation may lack: every other
 * package reaches them only from the framework's CLI, by a dynamic import() of the package (or a
 * type-only import, erased from the compiled code), so that no other command loads them.
 */
const PARTS = ['@toolgate/eval', '@toolgate/domains'] as const;
/** Where the CLI's doors to both are. */
const DOORS = 'toolgate/src/cli/';

/** Every import of a part from outside it, as "from -> part (form)", with whether the rule allows it. */
function crossings(): { line: string; allowed: boolean }[] {
  const result: { line: string; allowed: boolean }[] = [];
  for (const file of sourceFiles(PACKAGES).filter((f) => f.includes('/src/'))) {
    const from = relative(PACKAGES, file);
    for (const { specifier, form } of importSites(readFileSync(file, 'utf8'))) {
      const part = PARTS.find((p) => specifier === p || specifier.startsWith(`${p}/`));
      if (!part || from.startsWith(`${part.slice('@toolgate/'.length)}/`)) continue;
      const allowed = from.startsWith(DOORS) && specifier === part && form !== 'static';
      result.push({ line: `${from} -> ${specifier} (${form})`, allowed });
    }
  }
  return result;
}

describe('the evaluation harness and the reference demo are loaded lazily, by package name', () => {
  test('no package imports them but the CLI, dynamically or for types, through the package entry', () => {
    expect(
      crossings()
        .filter((c) => !c.allowed)
        .map((c) => c.line),
    ).toEqual([]);
  });

  test('the CLI does reach both dynamically (the rule sees the imports it allows)', () => {
    const dynamic = crossings()
      .filter((c) => c.allowed && c.line.endsWith('(dynamic)'))
      .map((c) => c.line.split(' -> ')[1]);
    expect(new Set(dynamic)).toEqual(new Set(['@toolgate/eval (dynamic)', '@toolgate/domains (dynamic)']));
  });

  test('static, type-only and dynamic imports are told apart', () => {
    const text = [
      "import { a } from '@toolgate/eval';",
      "import type { B } from '@toolgate/eval';",
      'import {',
      '  type C,',
      '  d,',
      "} from '../domains/y.ts';",
      "export { e } from '@toolgate/domains';",
      "import '@toolgate/domains/side-effect';",
      "const m = await import('@toolgate/eval');",
    ].join('\n');
    expect(importSites(text)).toEqual([
      { specifier: '@toolgate/eval', form: 'static' },
      { specifier: '@toolgate/eval', form: 'type' },
      { specifier: '../domains/y.ts', form: 'static' },
      { specifier: '@toolgate/domains', form: 'static' },
      { specifier: '@toolgate/domains/side-effect', form: 'static' },
      { specifier: '@toolgate/eval', form: 'dynamic' },
    ]);
  });
});
