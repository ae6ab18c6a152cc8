import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export type ImportForm = 'static' | 'type' | 'dynamic';

export interface ImportSite {
  readonly specifier: string;
  readonly form: ImportForm;
}

/**
 * Every import of a source text with how it is made: static (import/export ... from, a bare import),
 * type-only (import type / export type, erased from the compiled code) or dynamic (import(), also
 * `typeof import()` in a type, which loads nothing, and require() or require.resolve()).
 */
export function importSites(text: string): ImportSite[] {
  const found: ImportSite[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'";]*?from\s*'([^']+)'/g)) {
    found.push({ specifier: m[2]!, form: m[1] ? 'type' : 'static' });
  }
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*'([^']+)'/g))
    found.push({ specifier: m[1]!, form: 'static' });
  // Any quote: a dynamic import or a require may be written with any of them (a computed name is no site).
  for (const m of text.matchAll(/\b(?:import|require(?:\.resolve)?)\(\s*(['"`])([^'"`$]+)\1\s*\)/g))
    found.push({ specifier: m[2]!, form: 'dynamic' });
  return found;
}

/** The TypeScript files under a folder. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
