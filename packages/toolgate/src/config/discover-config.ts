import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The config files a command looks for in its working directory, first found wins. */
export const CONFIG_FILE_NAMES = [
  'toolgate.config.ts',
  'toolgate.config.mts',
  'toolgate.config.js',
  'toolgate.config.mjs',
] as const;

/** Where a command's tools come from: a config file, or none in the working directory. */
export type ConfigSource =
  | { readonly kind: 'file'; readonly file: string; readonly from: 'flag' | 'environment' | 'discovered' }
  | { readonly kind: 'none'; readonly projectDir: string };

export interface DiscoveryContext {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Decides which config a command works on: `--config`, else `TOOLGATE_CONFIG` (empty counts as
 * unset), else the first `./toolgate.config.{ts,mts,js,mjs}`, else none. Reads files, loads nothing.
 */
export function discoverConfig(flag: string | undefined, context: DiscoveryContext = {}): ConfigSource {
  const cwd = context.cwd ?? process.cwd();
  const env = context.env ?? process.env;
  if (flag !== undefined) return { kind: 'file', file: resolve(cwd, flag), from: 'flag' };
  if (env.TOOLGATE_CONFIG)
    return { kind: 'file', file: resolve(cwd, env.TOOLGATE_CONFIG), from: 'environment' };
  const found = CONFIG_FILE_NAMES.map((name) => join(cwd, name)).find((file) => existsSync(file));
  if (found !== undefined) return { kind: 'file', file: found, from: 'discovered' };
  return { kind: 'none', projectDir: cwd };
}

/**
 * The config file a command works on. Without one the command has no tools to work on: it prints
 * how to write one and exits 2.
 */
export function resolveCommandConfig(command: string, flag: string | undefined): string {
  const source = discoverConfig(flag);
  if (source.kind === 'file') return source.file;
  process.stderr.write(
    `toolgate ${command}: no toolgate.config.* in ${source.projectDir}: nothing to work on.\n` +
      `  Fix: add toolgate.config.ts there (npx toolgate init writes one; export default defineConfig({ tools: [...] })) or pass --config FILE.\n`,
  );
  process.exit(2);
}

/** The config file a command may work without (token): undefined when there is none. */
export function optionalCommandConfig(flag: string | undefined): string | undefined {
  const source = discoverConfig(flag);
  return source.kind === 'file' ? source.file : undefined;
}
