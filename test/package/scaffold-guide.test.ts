import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const TEMPLATE = join(ROOT, 'packages/toolgate/templates/init');
const guide = readFileSync(join(ROOT, 'docs/build-your-own-tool.md'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(TEMPLATE, path)];
  });
}

/** The guide walks through the project `toolgate init` writes, with its code complete. */
describe('the build-your-own guide', () => {
  const shown = filesUnder(TEMPLATE).filter((file) => /\.(ts|json)$/.test(file) && file !== 'tsconfig.json');

  test.each(shown)('shows %s as init writes it, whole', (file) => {
    expect(guide).toContain(readFileSync(join(TEMPLATE, file), 'utf8').trimEnd());
  });

  test('packs the framework package, never the private workspace root, wherever a doc says npm pack', () => {
    const docs = [
      'README.md',
      'docs/build-your-own-tool.md',
      'examples/billing/README.md',
      'examples/refunds/README.md',
    ];
    for (const doc of docs) {
      const commands = readFileSync(join(ROOT, doc), 'utf8').match(/^.*\bnpm pack\b.*$/gm) ?? [];
      // Shell lines (in code blocks, or `npm pack ...` in backticks) name the workspaces they pack.
      for (const line of commands.filter((l) => /`npm pack[^`]|^\(?cd |^npm pack/.test(l.trim()))) {
        expect(line, doc).toMatch(/npm pack[^\n]*-w packages\/toolgate/);
      }
    }
  });

  test('elides nothing and runs npx non-interactively', () => {
    expect(guide).not.toMatch(/\/\* \.\.\. \*\/|\.\.\.\s*\]|\/\/ \.\.\./);
    expect(guide.match(/^npx (?!-y )/gm) ?? []).toEqual([]);
    expect(guide.match(/\bnpx (?!-y )/g) ?? []).toEqual([]);
  });
});
