import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The config files a command looks for in its working directory, first found wins. */
export const CONFIG_FILE_NAMES = [
  'toolgate.config.ts',
  'toolgate.config.mts',
  'toolgate.config.js',
  'toolgate.config.mjs',
] as const;

/** Where a command's tools come from. */
export type ConfigSource =
  | { readonly kind: 'file'; readonly file: string; readonly from: 'flag' | 'environment' | 'discovered' }
  | { readonly kind: 'demo' }
  /** A project that uses toolgate but has no config: working on the demo would answer about the wrong tools. */
  | { readonly kind: 'refused'; readonly projectDir: string };

export interface DiscoveryContext {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Decides which config a command works on: `--config`, else `TOOLGATE_CONFIG` (empty counts as
 * unset), else the first `./toolgate.config.{ts,mts,js,mjs}`, else the reference demo — unless the
 * working directory's package.json depends on toolgate, which is refused. Reads files, loads nothing.
 */
export function discoverConfig(flag: string | undefined, context: DiscoveryContext = {}): ConfigSource {
  const cwd = context.cwd ?? process.cwd();
  const env = context.env ?? process.env;
  if (flag !== undefined) return { kind: 'file', file: resolve(cwd, flag), from: 'flag' };
  if (env.TOOLGATE_CONFIG)
    return { kind: 'file', file: resolve(cwd, env.TOOLGATE_CONFIG), from: 'environment' };
  const found = CONFIG_FILE_NAMES.map((name) => join(cwd, name)).find((file) => existsSync(file));
  if (found !== undefined) return { kind: 'file', file: found, from: 'discovered' };
  return dependsOnToolgate(cwd) ? { kind: 'refused', projectDir: cwd } : { kind: 'demo' };
}

export interface CommandConfigOptions {
  /** What the command does with the demo, for the one line that says so ("serving", "checking"). */
  readonly activity: string;
  /** False for a command whose output does not depend on the tools served (token). */
  readonly announceDemo?: boolean;
}

/**
 * The config file a command works on, or undefined for the reference demo (said in one line on
 * stderr). In a project that depends on toolgate without a config, prints the fix and exits 2.
 */
export function resolveCommandConfig(
  command: string,
  flag: string | undefined,
  options: CommandConfigOptions,
): string | undefined {
  const source = discoverConfig(flag);
  if (source.kind === 'file') return source.file;
  if (source.kind === 'refused') {
    process.stderr.write(
      `toolgate ${command}: no toolgate.config.* in ${source.projectDir}, and its package.json depends on ` +
        `toolgate: refusing to work on the reference demo instead.\n` +
        `  Fix: add toolgate.config.ts there (export default defineConfig({ tools: [...] })) or pass --config FILE.\n`,
    );
    process.exit(2);
  }
  if (options.announceDemo !== false) {
    process.stderr.write(
      `no toolgate.config.* here: ${options.activity} the reference demo (--config FILE or ./toolgate.config.ts for your own tools)\n`,
    );
  }
  return undefined;
}

function dependsOnToolgate(dir: string): boolean {
  let manifest: { dependencies?: Record<string, unknown>; devDependencies?: Record<string, unknown> };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return false;
  }
  return (
    Object.hasOwn(manifest?.dependencies ?? {}, 'toolgate') ||
    Object.hasOwn(manifest?.devDependencies ?? {}, 'toolgate')
  );
}
