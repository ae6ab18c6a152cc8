import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractImplementation } from './contract-document.ts';
import { FRAMEWORK_BUILD } from './contract-export.ts';

/**
 * The project a gateway serves, as its contract and release records name it: `name` and `version`
 * from `dir/package.json` (null where it has none), and with `commit`, the git commit `dir` is checked
 * out at and whether its tracked files have changes that commit does not hold (both null outside git).
 * Untracked files (evaluation results, logs, a data dir nobody ignored) do not count: they are not the
 * code the commit names. `commit: false` leaves those two out, so a committed contract stays the same
 * from one commit to the next.
 */
export function projectImplementation(dir: string, options: { commit: boolean }): ContractImplementation {
  const manifest = packageManifest(dir);
  const named = { name: manifest.name, version: manifest.version, framework: FRAMEWORK_BUILD };
  if (!options.commit) return named;
  const commit = git(dir, ['rev-parse', 'HEAD']);
  const changed = commit === null ? null : uncommittedChanges(dir);
  return { ...named, commit, dirty: changed === null ? null : changed.length > 0 };
}

/**
 * The tracked files of `dir`'s checkout that differ from its commit (staged or not), as `git status`
 * names them; null outside git.
 */
export function uncommittedChanges(dir: string): string[] | null {
  const status = git(dir, ['status', '--porcelain', '--untracked-files=no']);
  if (status === null) return null;
  return status === '' ? [] : status.split('\n').map((line) => line.trim().replace(/^\S+\s+/, ''));
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
