import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/**
 * The evaluation harness and the reference demo are parts an installation may lack: the rest of src/
 * reaches each only through its one entry, and only from the CLI, by a dynamic import() (or a type-only
 * import, erased from the compiled code), so that no other command loads them.
 */
const PARTS = [
  { folder: 'eval', entry: 'eval/index.ts' },
  { folder: 'domains', entry: 'domains/index.ts' },
] as const;

type ImportForm = 'static' | 'dynamic' | 'type';

/** Each relative specifier in a source text with how it is imported. */
function importsIn(text: string): { specifier: string; form: ImportForm }[] {
  const found: { specifier: string; form: ImportForm }[] = [];
  for (const m of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s*'(\.{1,2}\/[^']+)'/g,
  )) {
    found.push({ specifier: m[2]!, form: m[1] ? 'type' : 'static' });
  }
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*'(\.{1,2}\/[^']+)'/g)) {
    found.push({ specifier: m[1]!, form: 'static' });
  }
  for (const m of text.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) {
    found.push({ specifier: m[1]!, form: 'dynamic' });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every import of a part's file from outside the part, as "from -> to (form)". */
function crossings(): { line: string; allowed: boolean }[] {
  const result: { line: string; allowed: boolean }[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = relative(SRC, file);
    for (const { specifier, form } of importsIn(readFileSync(file, 'utf8'))) {
      const to = relative(SRC, resolve(dirname(file), specifier));
      const part = PARTS.find((p) => to.startsWith(`${p.folder}/`));
      if (!part || from.startsWith(`${part.folder}/`)) continue;
      const allowed = from.startsWith('cli/') && to === part.entry && form !== 'static';
      result.push({ line: `${from} -> ${to} (${form})`, allowed });
    }
  }
  return result;
}

describe('the evaluation harness and the reference demo are loaded lazily, through one entry each', () => {
  test('nothing outside src/eval and src/domains imports them but the CLI, dynamically, through the entry', () => {
    expect(
      crossings()
        .filter((c) => !c.allowed)
        .map((c) => c.line),
    ).toEqual([]);
  });

  test('the CLI does reach both entries dynamically (the rule sees the imports it allows)', () => {
    const dynamic = crossings()
      .filter((c) => c.allowed && c.line.endsWith('(dynamic)'))
      .map((c) => c.line.split(' -> ')[1]);
    expect(new Set(dynamic)).toEqual(new Set(['eval/index.ts (dynamic)', 'domains/index.ts (dynamic)']));
  });

  test('static, type-only and dynamic imports are told apart', () => {
    const text = [
      "import { a } from '../eval/x.ts';",
      "import type { B } from '../eval/index.ts';",
      'import {',
      '  type C,',
      '  d,',
      "} from '../domains/y.ts';",
      "export { e } from '../eval/z.ts';",
      "import '../domains/side-effect.ts';",
      "const m = await import('../eval/index.ts');",
    ].join('\n');
    expect(importsIn(text)).toEqual([
      { specifier: '../eval/x.ts', form: 'static' },
      { specifier: '../eval/index.ts', form: 'type' },
      { specifier: '../domains/y.ts', form: 'static' },
      { specifier: '../eval/z.ts', form: 'static' },
      { specifier: '../domains/side-effect.ts', form: 'static' },
      { specifier: '../eval/index.ts', form: 'dynamic' },
    ]);
  });
});
