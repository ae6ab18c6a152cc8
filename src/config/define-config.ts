import type { ToolgateModule } from '../app/module.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { OperationsTuning } from '../operations/operations-tuning.ts';

/**
 * A toolgate config file's default export. `tools` and `modules` say what is served (plus the
 * gateway's own operations_get, nothing else); the other members are the settings `toolgate serve`
 * also takes as flags and TOOLGATE_* variables, which override them. Relative paths are resolved
 * against the config file's directory.
 */
export interface ToolgateConfig {
  /** Tools that need nothing from the gateway but their handler (e.g. they call a service over HTTP). */
  readonly tools?: readonly AnyToolDefinition[];
  /** Units of tools with their own tables, background work or simulated world. */
  readonly modules?: readonly ToolgateModule[];
  /** Address to bind (default 127.0.0.1). */
  readonly host?: string;
  /** Port to bind, 0 for any free port (default 8787). */
  readonly port?: number;
  /** SQLite database and the dev signing key (default ./.toolgate). */
  readonly dataDir?: string;
  /** postgres:// URL: use PostgreSQL instead of SQLite. */
  readonly databaseUrl?: string;
  /** Production tokens: the issuer's JWKS URL and issuer (give both, or neither for the dev key). */
  readonly jwksUrl?: string;
  readonly issuer?: string;
  /** The public resource URL tokens must name in `aud` (default: the bound address). */
  readonly audience?: string;
  /** Host names besides loopback that may appear in Host/Origin. */
  readonly allowedHosts?: readonly string[];
  /** How long operation records are kept, in seconds (default 86400). */
  readonly retentionSeconds?: number;
  /** Mount /test-api/* for modules with simulation hooks. */
  readonly enableTestApi?: boolean;
  /** Insert the simulated modules' demo world on start (default true). */
  readonly seed?: boolean;
  /** Lease, reconcile and purge timings of durable operations. */
  readonly operations?: Partial<OperationsTuning>;
}

/** Identity function that gives a config its type, so editors complete and check it. */
export function defineConfig(config: ToolgateConfig): ToolgateConfig {
  return config;
}
