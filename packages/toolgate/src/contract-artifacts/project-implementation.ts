import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractImplementation } from './contract-document.ts';
import { FRAMEWORK_BUILD } from './contract-export.ts';

/**
 * The project a gateway serves, as its contract and release records name it: `name` and `version`
 * from `dir/package.json` (null where it has none), and with `commit`, the git commit `dir` is checked
 * out at and whether the checkout has changes (both null outside git). `commit: false` leaves those two
 * out, so a committed contract stays the same from one commit to the next.
 */
export function projectImplementation(dir: string, options: { commit: boolean }): ContractImplementation {
  const manifest = packageManifest(dir);
  const named = { name: manifest.name, version: manifest.version, framework: FRAMEWORK_BUILD };
  if (!options.commit) return named;
  const commit = git(dir, ['rev-parse', 'HEAD']);
  const status = commit === null ? null : git(dir, ['status', '--porcelain']);
  return { ...named, commit, dirty: status === null ? null : status !== '' };
}

function packageManifest(dir: string): { name: string | null; version: string | null } {
  let text: string;
  try {
    text = readFileSync(join(dir, 'package.json'), 'utf8');
  } catch {
    return { name: null, version: null };
  }
  let parsed: { name?: unknown; version?: unknown };
  try {
    parsed = JSON.parse(text) as { name?: unknown; version?: unknown };
  } catch (error) {
    throw new Error(`${join(dir, 'package.json')} is not JSON: ${(error as Error).message}`);
  }
  return {
    name: typeof parsed.name === 'string' ? parsed.name : null,
    version: typeof parsed.version === 'string' ? parsed.version : null,
  };
}

/** git's trimmed output in `dir`, or null when git is missing or `dir` is not in a checkout. */
function git(dir: string, args: readonly string[]): string | null {
  try {
    return execFileSync('git', ['-C', dir, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}
