import type { ToolgateModule } from '../app/module.ts';
import { ConfigFileError } from '../config/config-file-error.ts';
import type { ToolgateConfig } from '../config/define-config.ts';

/** What a command works on: a config file's modules, or the reference domains when none is named. */
export interface ServedModules {
  readonly modules: readonly ToolgateModule[];
  readonly settings: ToolgateConfig;
  /** The config file, or null for the reference domains. */
  readonly file: string | null;
}

/**
 * The config file named by --config or TOOLGATE_CONFIG (empty counts as unset). It lives here, not in
 * serve-options, so that lint and contract do not load serve's option parsing (zod schemas, the HTTP
 * server, token verification, the PostgreSQL driver).
 */
export function configFileOption(flag: string | undefined): string | undefined {
  return flag ?? (process.env.TOOLGATE_CONFIG || undefined);
}

/** Loads --config (or TOOLGATE_CONFIG); without one, the reference domains. Either is loaded only then. */
export async function servedModules(configFlag: string | undefined): Promise<ServedModules> {
  const path = configFileOption(configFlag);
  if (path === undefined) {
    const { referenceDomains } = await import('../domains/reference-domains.ts');
    return { modules: referenceDomains, settings: {}, file: null };
  }
  const { loadConfigFile } = await import('../config/load-config.ts');
  const loaded = await loadConfigFile(path);
  return { modules: loaded.modules, settings: loaded.config, file: loaded.file };
}

/** Prints a config's problems the way every command does, and exits 2. */
export function exitOnConfigError(command: string, error: unknown): void {
  if (!(error instanceof ConfigFileError)) return;
  process.stderr.write(`toolgate ${command}: invalid config ${error.message}\n`);
  process.exit(2);
}
