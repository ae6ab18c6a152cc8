import type { App } from '../app/create-app.ts';
import type { ToolgateModule } from '../app/module.ts';
import type { DevKeys } from '../auth/dev-keys.ts';
import type { TokenSubject } from '../auth/token-claims.ts';
import type { KeySource } from '../auth/token-verifier.ts';
import type { ContractDocument } from '../contract-artifacts/contract-document.ts';
import type { HttpRouteFamily } from '../transport/http-server.ts';
import type { ToolgateConfig } from './define-config.ts';

/**
 * What another package adds to toolgate without toolgate naming it (docs/extensions.md): commands of
 * the `toolgate` CLI, found in the project's installed packages, and hooks around `serve` and
 * `startTestGateway`, named by a config's `extensions` (or a test's). Both are optional.
 */
export interface ToolgateExtension {
  /** Who provides it, for messages ("@toolgate/eval"). */
  readonly name: string;
  /** Commands this package adds to the CLI; they count only for an extension its package.json declares. */
  readonly commands?: readonly ExtensionCommand[];
  /** Hooks around a served app; they count only for an extension a config (or a test gateway) names. */
  readonly serve?: ServeExtension;
}

/** One command of the CLI, as a user types it: `toolgate eval ...`, `toolgate contract release ...`. */
export interface ExtensionCommand {
  /** The words after `toolgate`: `['eval']`, or `['contract', 'release']` under a command toolgate has. */
  readonly path: readonly [string, ...string[]];
  readonly description: string;
  readonly options: readonly ExtensionOption[];
  /**
   * Does the command's work and answers its exit status. Loading what the work needs belongs here,
   * not at the top of the extension module, so that `--help` and other commands stay light. A thrown
   * error is one line on stderr (`toolgate <command>: <message>`), exit 2.
   */
  run(options: Readonly<Record<string, unknown>>, context: ExtensionCommandContext): Promise<number>;
}

/** One flag of an extension command, as `--help` shows it and the CLI checks it before `run`. */
export interface ExtensionOption {
  /** `--agent <kind>`, `--policy <names...>`, `--no-progress`: the value's name in camelCase is its key. */
  readonly flags: string;
  readonly description: string;
  /** The only values accepted (checked before `run`, listed by `--help`). */
  readonly choices?: readonly string[];
  readonly default?: string | boolean;
  /** The environment variable read when the flag is not given. */
  readonly env?: string;
  /** The command refuses to run without it. */
  readonly required?: boolean;
}

/** What the framework lends an extension command. */
export interface ExtensionCommandContext {
  /** The command as typed, for messages: `eval`, `contract release`. */
  readonly command: string;
  /** Where an option's value came from: the command line, its variable, its default; undefined when unset. */
  optionSource(key: string): 'cli' | 'env' | 'default' | undefined;
  /**
   * The config the command works on: `--config` (the flag's value given here), `TOOLGATE_CONFIG`, else
   * `./toolgate.config.*`. Without one the process ends (exit 2) saying how to write one.
   */
  configFile(flag: string | undefined): string;
  /** The config's modules and settings, loaded as `serve` loads them (start-up deadline included). */
  loadProject(file: string): Promise<LoadedProject>;
  /** The contract of a file (`toolgate contract export` output), or with `undefined` of what the config serves. */
  loadContract(file: string | undefined, configFlag: string | undefined): Promise<ContractDocument>;
}

/** A config as a command works on it. */
export interface LoadedProject {
  /** The modules served, the config's own tools as one more. */
  readonly modules: readonly ToolgateModule[];
  readonly config: ToolgateConfig;
  /** The config file. */
  readonly file: string;
}

/** A principal a serve extension knows by name: `startTestGateway`'s `tokenFor('name')`. */
export interface NamedPrincipal {
  readonly name: string;
  readonly subject: TokenSubject;
}

/** Where a served app is reached, for the lines and tokens a serve extension offers. */
export interface ServedEndpoint {
  /** The MCP endpoint's URL (the tokens' audience). */
  readonly url: string;
  /** The dev signing keys: the server accepts tokens they sign. */
  readonly keys: DevKeys;
  /** `--data-dir D` when the server does not use the default data dir, for commands it suggests. */
  readonly dataDirOption: string;
}

/**
 * Hooks around an app as `toolgate serve`, `toolgate demo tokens` and `startTestGateway` run it. Every
 * hook is optional; with several extensions each runs in the config's order.
 */
export interface ServeExtension {
  /** Inserts the extension's world once the app is created, before anything is served (unless `--no-seed`). */
  seed?(app: App): Promise<void>;
  /** The principals it knows by name. */
  principals?(app: App): readonly NamedPrincipal[];
  /** The routes `--enable-test-api` mounts; null when nothing served has them. */
  testApi?(app: App, options: { readonly keys: KeySource }): HttpRouteFamily | null;
  /** Lines the start-up banner shows after the URL instead of how to mint a token; null for none. */
  welcome?(app: App, endpoint: ServedEndpoint): Promise<readonly string[] | null>;
  /** What `toolgate demo tokens` prints: a dev token per principal it offers; null for none. */
  tokenList?(app: App, endpoint: Omit<ServedEndpoint, 'dataDirOption'>): Promise<string | null>;
}

/** Types an extension module's default export; answers it unchanged. */
export function defineExtension(extension: ToolgateExtension): ToolgateExtension {
  return extension;
}
