import type { ToolgateModule } from '../app/module.ts';
import type { ExceptionDefinition } from '../contract/define-exception.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { OperationsTuning } from '../operations/operations-tuning.ts';
import type { ToolgateExtension } from './toolgate-extension.ts';

/**
 * Per-principal limits of `toolgate serve`; on PostgreSQL they hold for every gateway sharing the
 * database (unless `fleet` is false), on SQLite per gateway process.
 */
export interface RateLimitConfig {
  /**
   * Requests per second per principal, weighted by cost, with a burst of the same number (default 100;
   * 0 turns it off, as `--rate-limit-per-principal 0` does).
   */
  readonly perPrincipal?: number;
  /** Own rates (own buckets) for one class of tools, e.g. `{ write: 2 }`. */
  readonly byKind?: { readonly read?: number; readonly write?: number; readonly request?: number };
  /** Distinct write/request operations one principal may have executing at once (default 8). */
  readonly writesInFlightPerPrincipal?: number;
  /**
   * PostgreSQL: hold the rate, the reply-byte budget and the writes in flight for every gateway sharing
   * the database (default true); false counts them per gateway process, as SQLite always does.
   */
  readonly fleet?: boolean;
}

/** Connection limits of the HTTP server. */
export interface HttpLimitsConfig {
  /** Time to send the request headers, ms (default 10000). */
  readonly headersTimeoutMs?: number;
  /** Time to send the whole request, body included, ms (default 30000). */
  readonly requestTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open, ms (default 5000). */
  readonly keepAliveTimeoutMs?: number;
  /** Concurrent connections (default 1024). */
  readonly maxConnections?: number;
}

/**
 * A toolgate config file's default export. `tools` and `modules` say what is served (plus the
 * gateway's own operations_get, nothing else); the other members are the settings `toolgate serve`
 * also takes as flags and TOOLGATE_* variables, which override them. Relative paths are resolved
 * against the config file's directory.
 */
export interface ToolgateConfig {
  /** Tools that need nothing from the gateway but their handler (e.g. they call a service over HTTP). */
  readonly tools?: readonly AnyToolDefinition[];
  /** Kinds of exception people may grant to the plain `tools`' rules (`defineException`). */
  readonly exceptions?: readonly ExceptionDefinition[];
  /** Units of tools with their own tables, background work or simulated world. */
  readonly modules?: readonly ToolgateModule[];
  /**
   * Packages that plug into serving (docs/extensions.md): the simulation kit's seeds the simulated
   * modules' world, prints the demo banner and mounts `--enable-test-api`'s routes.
   */
  readonly extensions?: readonly ToolgateExtension[];
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
  /**
   * Refuse the issuer's tokens without the JWT header `typ: at+jwt` (RFC 9068; default true). Set false
   * only for an issuer that cannot set it. Dev tokens always carry it and are always checked.
   */
  readonly requireTokenType?: boolean;
  /** The public resource URL tokens must name in `aud` (default: the bound address). */
  readonly audience?: string;
  /** Host names besides loopback that may appear in Host/Origin. */
  readonly allowedHosts?: readonly string[];
  /** How long operation records are kept, in seconds (default 86400). */
  readonly retentionSeconds?: number;
  /**
   * How long a call parked for an approver (confirmation fallback `operator`) waits before it is
   * rejected as CONFIRMATION_EXPIRED, in seconds (default 86400).
   */
  readonly operatorConfirmationTtlSeconds?: number;
  /**
   * A directory of Cedar policies (`*.cedar` plus one `*.cedarschema`) that decides every call, default
   * deny (docs/policies.md); absent: the tools' scopes decide alone.
   */
  readonly policy?: string;
  /**
   * A release record (`toolgate contract release`): refuse to start unless the contract, the project and
   * the policy set served are the ones it released (docs/releases.md).
   */
  readonly release?: string;
  /** Mount /test-api/* for modules with simulation hooks. */
  readonly enableTestApi?: boolean;
  /** Insert the simulated modules' demo world on start (default true). */
  readonly seed?: boolean;
  /** Lease, reconcile and purge timings of durable operations. */
  readonly operations?: Partial<OperationsTuning>;
  /** Per-principal rate limit and writes in flight. */
  readonly rateLimit?: RateLimitConfig;
  /** HTTP header/request/keep-alive timeouts and the connection cap. */
  readonly http?: HttpLimitsConfig;
  /** The longest lifetime (`exp` - `iat`) a bearer token may have, in seconds (default 86400). */
  readonly maxTokenLifetimeSeconds?: number;
  /** PostgreSQL: the longest one statement or connection attempt may take, ms (default 5000). */
  readonly databaseStatementTimeoutMs?: number;
  /** PostgreSQL: pipelined connections for plain reads, beside the pool (default 1; 0: none). */
  readonly databaseReadLanes?: number;
  /** Tools per tools/list page (default 100); a longer listing is paged with `nextCursor`. */
  readonly toolsPageSize?: number;
  /** Tasks per tasks/list page (default 50); the caller's own operations, oldest first. */
  readonly tasksPageSize?: number;
}

/** Identity function that gives a config its type, so editors complete and check it. */
export function defineConfig(config: ToolgateConfig): ToolgateConfig {
  return config;
}
