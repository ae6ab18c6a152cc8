import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importSites, sourceFiles } from './import-sites.ts';

const PACKAGES = join(import.meta.dirname, '../../packages');

/** The evaluation harness and the reference demo: packages an installation may lack, that nothing needs. */
const PARTS = ['@toolgate/eval', '@toolgate/domains'] as const;

/** Every import of a part from another package, as "from -> part (form)". */
function crossings(): string[] {
  const result: string[] = [];
  for (const file of sourceFiles(PACKAGES).filter((f) => f.includes('/src/'))) {
    const from = relative(PACKAGES, file);
    for (const { specifier, form } of importSites(readFileSync(file, 'utf8'))) {
      const part = PARTS.find((p) => specifier === p || specifier.startsWith(`${p}/`));
      if (!part || from.startsWith(`${part.slice('@toolgate/'.length)}/`)) continue;
      result.push(`${from} -> ${specifier} (${form})`);
    }
  }
  return result;
}

/** The files a module loads when imported: its static imports, followed through relative paths. */
function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const { specifier, form } of importSites(readFileSync(file, 'utf8'))) {
      if (form !== 'static') continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return { files: [...files].map((f) => relative(PACKAGES, f)).sort(), packages: [...packages].sort() };
}

describe('the evaluation harness and the reference demo are reached by no other package', () => {
  test('no package imports them, in any form', () => {
    expect(crossings()).toEqual([]);
  });

  test("the harness's extension module loads its command definitions only: no harness, no model SDK, no toolgate code", () => {
    const loaded = staticClosure(join(PACKAGES, 'eval/src/toolgate-extension.ts'));
    expect(loaded.packages).toEqual([]);
    expect(loaded.files).toEqual([
      'eval/src/agents/adversarial-policies.ts',
      'eval/src/agents/eval-agent.ts',
      'eval/src/agents/llm-providers.ts',
      'eval/src/cli/contract-release-command.ts',
      'eval/src/cli/eval-command.ts',
      'eval/src/toolgate-extension.ts',
    ]);
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
