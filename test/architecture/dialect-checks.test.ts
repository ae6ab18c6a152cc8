import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** The one place that may know which database it runs on: it answers the capabilities for everyone else. */
const STORE = join(ROOT, 'packages/toolgate/src/store');
/** Every workspace package's sources. */
const PACKAGE_SOURCES = readdirSync(join(ROOT, 'packages')).map((name) =>
  join(ROOT, 'packages', name, 'src'),
);

const DIALECT = String.raw`['"\`](?:sqlite|postgres|postgresql)['"\`]`;
/** Ways code asks which database it runs on instead of asking the database for a capability. */
const DIALECT_CHECKS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'reads .dialect', pattern: /\.dialect\b/ },
  { what: 'compares a dialect', pattern: /\bdialect\s*[!=]==?|[!=]==?\s*dialect\b/ },
  {
    what: 'compares with a dialect name',
    pattern: new RegExp(String.raw`[!=]==?\s*${DIALECT}|${DIALECT}\s*[!=]==?`),
  },
  { what: 'switches on a dialect name', pattern: new RegExp(String.raw`\bcase\s+${DIALECT}`) },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || path === STORE ? [] : sourceFiles(path);
    return /\.(?:ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The dialect checks in one file's text, as `line: what`. */
function dialectChecksIn(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      DIALECT_CHECKS.filter((check) => check.pattern.test(line)).map((check) => `${i + 1}: ${check.what}`),
    );
}

describe('dialect differences are capabilities of the database object', () => {
  test("nothing outside the framework's store/ checks which database it runs on, in any package", () => {
    const files = [...PACKAGE_SOURCES.flatMap(sourceFiles), ...sourceFiles(join(ROOT, 'examples'))];
    expect(PACKAGE_SOURCES.length).toBe(4);
    expect(files.length).toBeGreaterThan(100);
    const violations = files.flatMap((file) =>
      dialectChecksIn(readFileSync(file, 'utf8')).map((found) => `${relative(ROOT, file)}:${found}`),
    );
    expect(violations).toEqual([]);
  });

  test('the check sees the checks it forbids', () => {
    expect(dialectChecksIn("if (tx.dialect === 'postgres') {")).toEqual([
      '1: reads .dialect',
      '1: compares a dialect',
      '1: compares with a dialect name',
    ]);
    expect(dialectChecksIn('const rows = await executor.query(LOAD_ORDER[executor.dialect]);')).toEqual([
      '1: reads .dialect',
    ]);
    expect(
      dialectChecksIn("const { dialect } = db;\nconst lock = dialect !== 'sqlite' ? ' FOR UPDATE' : '';"),
    ).toEqual(['2: compares a dialect', '2: compares with a dialect name']);
    expect(dialectChecksIn("switch (kind) {\n  case 'postgres':")).toEqual(['2: switches on a dialect name']);
    // Naming a database is not asking which one runs.
    expect(dialectChecksIn("database: flags.databaseUrl ? 'postgresql' : 'sqlite',")).toEqual([]);
    expect(dialectChecksIn("const lock = tx.lockingClause('update');")).toEqual([]);
  });
});
