import { resolve } from 'node:path';
import type { ToolgateModule } from '../app/module.ts';
import { ConfigFileError } from '../config/config-file-error.ts';
import type { ToolgateConfig } from '../config/define-config.ts';
import { type StartupDeadline, startupDeadline } from './startup-deadline.ts';

/** What a command works on: a config file's modules and settings. */
export interface ServedModules {
  readonly modules: readonly ToolgateModule[];
  readonly settings: ToolgateConfig;
  /** The config file. */
  readonly file: string;
}

/**
 * Loads the config file (a command finds it with resolveCommandConfig). Importing the config and each
 * module's create() are bounded by the start-up deadline: a step that does not settle in time ends the
 * process with exit 2, naming the file or the module waited on. `command` names the command in those
 * messages (e.g. "serve").
 */
export async function servedModules(path: string, command?: string): Promise<ServedModules> {
  const label = command ? `toolgate ${command}` : 'toolgate';
  const deadline = startupDeadline(label);
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
