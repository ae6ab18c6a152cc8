import { resolve } from 'node:path';
import type { ToolgateModule } from '../app/module.ts';
import { ConfigFileError } from '../config/config-file-error.ts';
import type { ToolgateConfig } from '../config/define-config.ts';
import { PartMissingError, referenceDemo } from './optional-parts.ts';
import { type StartupDeadline, startupDeadline } from './startup-deadline.ts';

/** What a command works on: a config file's modules, or the reference domains when none is named. */
export interface ServedModules {
  readonly modules: readonly ToolgateModule[];
  /** The config's settings; for the reference domains, the demo's policy directory. */
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

/**
 * Loads --config (or TOOLGATE_CONFIG); without one, the reference domains. Either is loaded only then.
 * Importing the config and each module's create() are bounded by the start-up deadline: a step that
 * does not settle in time ends the process with exit 2, naming the file or the module waited on. So
 * does a run without a config where the reference demo is not installed, saying what to do instead.
 * `command` names the command in those messages (e.g. "serve").
 */
export async function servedModules(
  configFlag: string | undefined,
  command?: string,
): Promise<ServedModules> {
  const label = command ? `toolgate ${command}` : 'toolgate';
  const deadline = startupDeadline(label);
  const path = configFileOption(configFlag);
  if (path === undefined) {
    const { DEMO_POLICY_DIR, referenceDomains } = await referenceDemo().catch((error: unknown) => {
      if (!(error instanceof PartMissingError)) throw error;
      process.stderr.write(`${label}: ${error.message}\n`);
      return process.exit(2);
    });
    return {
      modules: referenceDomains.map((m) => boundedCreate(m, deadline)),
      settings: { policy: DEMO_POLICY_DIR },
      file: null,
    };
  }
  const { loadConfigFile } = await import('../config/load-config.ts');
  const loaded = await deadline.within(
    loadConfigFile(path),
    `the import of config file ${resolve(path)}: its top-level await, or one in a module it imports, has not settled`,
  );
  return {
    modules: loaded.modules.map((m) => boundedCreate(m, deadline)),
    settings: loaded.config,
    file: loaded.file,
  };
}

/** The module with its create() bounded by the deadline. */
function boundedCreate(module: ToolgateModule, deadline: StartupDeadline): ToolgateModule {
  const create: ToolgateModule['create'] = (context) =>
    deadline.within(
      Promise.resolve().then(() => module.create(context)),
      `module ${module.name}: its create() has not settled`,
    );
  return module.migrations
    ? { name: module.name, migrations: module.migrations, create }
    : { name: module.name, create };
}

/** Prints a config's problems the way every command does, and exits 2. */
export function exitOnConfigError(command: string, error: unknown): void {
  if (!(error instanceof ConfigFileError)) return;
  process.stderr.write(`toolgate ${command}: invalid config ${error.message}\n`);
  process.exit(2);
}
