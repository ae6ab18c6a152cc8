import { DEFAULT_MAX_TOKEN_LIFETIME_SECONDS } from '../auth/token-defaults.ts';
import {
  DEFAULT_RATE_LIMIT_PER_PRINCIPAL,
  DEFAULT_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL,
  DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL,
} from '../gateway/limit-defaults.ts';
import { DEFAULT_READ_LANES, DEFAULT_STATEMENT_TIMEOUT_MS } from '../store/postgres/postgres-defaults.ts';
import { DEFAULT_TASKS_PAGE_SIZE } from '../tasks/task-request-checks.ts';
import { DEFAULT_CONNECTION_LIMITS, DEFAULT_HOST, DEFAULT_PORT } from '../transport/endpoint-defaults.ts';
import { DEFAULT_TOOLS_PAGE_SIZE } from '../transport/serialized-listings.ts';

/** What every setting states: how it is named on each surface and what it sets. */
interface SettingNames {
  /** The `serve` flag; a setting on by default is turned off by its `--no-...` flag. */
  readonly flag: `--${string}`;
  /** The commander placeholder of the flag's value (`<n>`); booleans take none. */
  readonly placeholder?: `<${string}>`;
  /** The environment variable, where the setting has one. */
  readonly env?: `TOOLGATE_${string}`;
  /** Where the setting sits in the config file (`rateLimit.perPrincipal`), where it has a place there. */
  readonly key?: string;
  /** One line for `--help` and the README table. */
  readonly description: string;
}

/** A numeric setting; `port` words its range as `0-65535`, the others as `from MIN to MAX`. */
export interface NumberSetting extends SettingNames {
  readonly type: 'integer' | 'number' | 'port';
  readonly min: number;
  readonly max: number;
  readonly default?: number;
  /**
   * `serve` passes the value only when one is given, and the operations runtime applies this default
   * (a module the CLI does not load to start; a test holds the two equal).
   */
  readonly appliedByRuntime?: true;
  readonly unit?: 'ms' | 's' | 'B/s' | 'requests/s';
  /** How a refusal names what is wanted ("an integer" unless said). */
  readonly noun?: string;
  /** 0 turns the limit off rather than setting it to nothing. */
  readonly zeroTurnsOff?: boolean;
}

/** A text setting: plain, a path (relative to the config file there), an http(s) URL, a postgres:// URL, or a list. */
export interface TextSetting extends SettingNames {
  readonly type: 'string' | 'path' | 'url' | 'postgres-url' | 'list';
  readonly default?: string;
}

/** An on/off setting; its flag turns it on, or (`--no-...`) off when it is on by default. */
export interface BooleanSetting extends SettingNames {
  readonly type: 'boolean';
  readonly default: boolean;
}

export type ServeSetting = NumberSetting | TextSetting | BooleanSetting;

/**
 * Every setting of `toolgate serve`, once: its flag, variable, config-file key, bounds, default, unit
 * and description. The commander options, the resolution (flag > variable > config file > default),
 * the config file's schema and the README's settings table are derived from it; the entry's name is
 * the attribute commander gives the flag's value. Defaults are the layers' own constants where the
 * CLI may load them; the three kept by the operations runtime are stated here and checked against it.
 */
export const SERVE_SETTINGS = {
  host: {
    flag: '--host',
    placeholder: '<host>',
    env: 'TOOLGATE_HOST',
    key: 'host',
    type: 'string',
    default: DEFAULT_HOST,
    description: 'address to bind',
  },
  port: {
    flag: '--port',
    placeholder: '<port>',
    env: 'TOOLGATE_PORT',
    key: 'port',
    type: 'port',
    min: 0,
    max: 65_535,
    default: DEFAULT_PORT,
    description: 'port to bind, 0 for any free port',
  },
  dataDir: {
    flag: '--data-dir',
    placeholder: '<dir>',
    env: 'TOOLGATE_DATA_DIR',
    key: 'dataDir',
    type: 'path',
    default: './.toolgate',
    description: 'SQLite database and dev signing key',
  },
  databaseUrl: {
    flag: '--database-url',
    placeholder: '<url>',
    env: 'TOOLGATE_DATABASE_URL',
    key: 'databaseUrl',
    type: 'postgres-url',
    description: 'PostgreSQL instead of SQLite',
  },
  stdio: {
    flag: '--stdio',
    env: 'TOOLGATE_STDIO',
    type: 'boolean',
    default: false,
    description: 'serve one client over stdin/stdout as the principal in TOOLGATE_TOKEN',
  },
  enableTestApi: {
    flag: '--enable-test-api',
    env: 'TOOLGATE_ENABLE_TEST_API',
    key: 'enableTestApi',
    type: 'boolean',
    default: false,
    description: 'mount /test-api/* for tokens with scope test:control',
  },
  policy: {
    flag: '--policy',
    placeholder: '<dir>',
    env: 'TOOLGATE_POLICY',
    key: 'policy',
    type: 'path',
    description: "decide calls by the Cedar policies in this directory; the demo's policies/ when serving it",
  },
  release: {
    flag: '--release',
    placeholder: '<file>',
    env: 'TOOLGATE_RELEASE',
    key: 'release',
    type: 'path',
    description: "start only if the contract, project and policy set served are this release record's",
  },
  seed: {
    flag: '--no-seed',
    env: 'TOOLGATE_SEED',
    key: 'seed',
    type: 'boolean',
    default: true,
    description: 'do not insert the demo world',
  },
  localPrincipalToken: {
    flag: '--local-principal-token',
    placeholder: '<token>',
    env: 'TOOLGATE_LOCAL_PRINCIPAL_TOKEN',
    type: 'string',
    description: 'header-less HTTP requests act as this principal; loopback only',
  },
  jwksUrl: {
    flag: '--jwks-url',
    placeholder: '<url>',
    env: 'TOOLGATE_JWKS_URL',
    key: 'jwksUrl',
    type: 'url',
    description: 'production: verify tokens with this JWKS, with --issuer',
  },
  issuer: {
    flag: '--issuer',
    placeholder: '<iss>',
    env: 'TOOLGATE_ISSUER',
    key: 'issuer',
    type: 'string',
    description: 'production: required token issuer, with --jwks-url',
  },
  requireTokenType: {
    flag: '--no-require-token-type',
    env: 'TOOLGATE_REQUIRE_TOKEN_TYPE',
    key: 'requireTokenType',
    type: 'boolean',
    default: true,
    description: "production: accept the issuer's tokens without the JWT header typ at+jwt",
  },
  audience: {
    flag: '--audience',
    placeholder: '<url>',
    env: 'TOOLGATE_AUDIENCE',
    key: 'audience',
    type: 'url',
    description: 'public resource URL tokens must name in aud; the bound address when absent',
  },
  retentionSeconds: {
    flag: '--retention-seconds',
    placeholder: '<n>',
    env: 'TOOLGATE_RETENTION_SECONDS',
    key: 'retentionSeconds',
    type: 'integer',
    min: 60,
    max: 31_536_000,
    default: 24 * 60 * 60,
    appliedByRuntime: true,
    unit: 's',
    description: 'keep operation records this long',
  },
  auditRetentionSeconds: {
    flag: '--audit-retention-seconds',
    placeholder: '<n>',
    env: 'TOOLGATE_AUDIT_RETENTION_SECONDS',
    type: 'integer',
    min: 86_400,
    max: 3_153_600_000,
    default: 90 * 24 * 60 * 60,
    appliedByRuntime: true,
    unit: 's',
    noun: 'a whole number of seconds',
    description: 'keep audit entries this long',
  },
  operatorConfirmationTtlSeconds: {
    flag: '--operator-confirmation-ttl-seconds',
    placeholder: '<n>',
    env: 'TOOLGATE_OPERATOR_CONFIRMATION_TTL_SECONDS',
    key: 'operatorConfirmationTtlSeconds',
    type: 'integer',
    min: 60,
    max: 31_536_000,
    default: 24 * 60 * 60,
    appliedByRuntime: true,
    unit: 's',
    description: 'how long a call waits for an approver before it is rejected',
  },
  allowedHosts: {
    flag: '--allowed-hosts',
    placeholder: '<hosts>',
    env: 'TOOLGATE_ALLOWED_HOSTS',
    key: 'allowedHosts',
    type: 'list',
    description: 'extra Host names, comma-separated; an array in the config file',
  },
  rateLimitPerPrincipal: {
    flag: '--rate-limit-per-principal',
    placeholder: '<n>',
    env: 'TOOLGATE_RATE_LIMIT_PER_PRINCIPAL',
    key: 'rateLimit.perPrincipal',
    type: 'number',
    min: 0,
    max: 100_000,
    default: DEFAULT_RATE_LIMIT_PER_PRINCIPAL,
    unit: 'requests/s',
    noun: 'a number of calls per second',
    zeroTurnsOff: true,
    description: 'requests per second per principal, burst n, weighted by cost; 0 for none',
  },
  replyBytesPerSecondPerPrincipal: {
    flag: '--reply-bytes-per-second-per-principal',
    placeholder: '<n>',
    env: 'TOOLGATE_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL',
    type: 'integer',
    min: 0,
    max: 1_099_511_627_776,
    default: DEFAULT_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL,
    unit: 'B/s',
    noun: 'a whole number of bytes',
    zeroTurnsOff: true,
    description: 'answer bytes per second per principal, burst n; 0 for none',
  },
  maxWritesInFlightPerPrincipal: {
    flag: '--max-writes-in-flight-per-principal',
    placeholder: '<n>',
    env: 'TOOLGATE_MAX_WRITES_IN_FLIGHT_PER_PRINCIPAL',
    key: 'rateLimit.writesInFlightPerPrincipal',
    type: 'integer',
    min: 1,
    max: 10_000,
    default: DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL,
    description: 'write/request operations one principal may have executing at once',
  },
  fleetLimits: {
    flag: '--no-fleet-limits',
    env: 'TOOLGATE_FLEET_LIMITS',
    key: 'rateLimit.fleet',
    type: 'boolean',
    default: true,
    description:
      'PostgreSQL: count the per-principal limits per gateway process, not for every gateway on the database',
  },
  headersTimeoutMs: {
    flag: '--headers-timeout-ms',
    placeholder: '<ms>',
    env: 'TOOLGATE_HEADERS_TIMEOUT_MS',
    key: 'http.headersTimeoutMs',
    type: 'integer',
    min: 100,
    max: 600_000,
    default: DEFAULT_CONNECTION_LIMITS.headersTimeoutMs,
    unit: 'ms',
    noun: 'an integer number of milliseconds',
    description: 'time to send request headers',
  },
  requestTimeoutMs: {
    flag: '--request-timeout-ms',
    placeholder: '<ms>',
    env: 'TOOLGATE_REQUEST_TIMEOUT_MS',
    key: 'http.requestTimeoutMs',
    type: 'integer',
    min: 100,
    max: 600_000,
    default: DEFAULT_CONNECTION_LIMITS.requestTimeoutMs,
    unit: 'ms',
    noun: 'an integer number of milliseconds',
    description: 'time to send a whole request, body included',
  },
  keepAliveTimeoutMs: {
    flag: '--keep-alive-timeout-ms',
    placeholder: '<ms>',
    env: 'TOOLGATE_KEEP_ALIVE_TIMEOUT_MS',
    key: 'http.keepAliveTimeoutMs',
    type: 'integer',
    min: 100,
    max: 600_000,
    default: DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs,
    unit: 'ms',
    noun: 'an integer number of milliseconds',
    description: 'idle keep-alive connections close after this',
  },
  maxConnections: {
    flag: '--max-connections',
    placeholder: '<n>',
    env: 'TOOLGATE_MAX_CONNECTIONS',
    key: 'http.maxConnections',
    type: 'integer',
    min: 1,
    max: 1_000_000,
    default: DEFAULT_CONNECTION_LIMITS.maxConnections,
    description: 'concurrent HTTP connections',
  },
  maxTokenLifetimeSeconds: {
    flag: '--max-token-lifetime-seconds',
    placeholder: '<n>',
    env: 'TOOLGATE_MAX_TOKEN_LIFETIME_SECONDS',
    key: 'maxTokenLifetimeSeconds',
    type: 'integer',
    min: 60,
    max: 31_536_000,
    default: DEFAULT_MAX_TOKEN_LIFETIME_SECONDS,
    unit: 's',
    description: 'refuse bearer tokens living longer, exp - iat',
  },
  databaseStatementTimeoutMs: {
    flag: '--database-statement-timeout-ms',
    placeholder: '<ms>',
    env: 'TOOLGATE_DATABASE_STATEMENT_TIMEOUT_MS',
    key: 'databaseStatementTimeoutMs',
    type: 'integer',
    min: 100,
    max: 600_000,
    default: DEFAULT_STATEMENT_TIMEOUT_MS,
    unit: 'ms',
    noun: 'an integer number of milliseconds',
    description: 'PostgreSQL: longest statement or connection attempt',
  },
  databaseReadLanes: {
    flag: '--database-read-lanes',
    placeholder: '<n>',
    env: 'TOOLGATE_DATABASE_READ_LANES',
    key: 'databaseReadLanes',
    type: 'integer',
    min: 0,
    max: 16,
    default: DEFAULT_READ_LANES,
    description: 'PostgreSQL: pipelined connections for plain reads, beside the pool; 0 for none',
  },
  toolsPageSize: {
    flag: '--tools-page-size',
    placeholder: '<n>',
    env: 'TOOLGATE_TOOLS_PAGE_SIZE',
    key: 'toolsPageSize',
    type: 'integer',
    min: 1,
    max: 10_000,
    default: DEFAULT_TOOLS_PAGE_SIZE,
    description: 'tools per tools/list page; longer listings are paged',
  },
  tasksPageSize: {
    flag: '--tasks-page-size',
    placeholder: '<n>',
    env: 'TOOLGATE_TASKS_PAGE_SIZE',
    key: 'tasksPageSize',
    type: 'integer',
    min: 1,
    max: 1_000,
    default: DEFAULT_TASKS_PAGE_SIZE,
    description: "tasks per tasks/list page of the caller's own operations",
  },
} as const satisfies Record<string, ServeSetting>;

export type ServeSettingName = keyof typeof SERVE_SETTINGS;
type Settings = typeof SERVE_SETTINGS;

/** The names of the settings of one kind (`SettingNameOf<NumberSetting>`). */
export type SettingNameOf<Kind extends ServeSetting> = {
  [N in ServeSettingName]: Settings[N] extends Kind ? N : never;
}[ServeSettingName];

/** The value a setting holds once read: a number, a flag, a list of names or a text. */
export type ServeSettingValue<S extends ServeSetting> = S extends NumberSetting
  ? number
  : S extends BooleanSetting
    ? boolean
    : S extends { readonly type: 'list' }
      ? readonly string[]
      : string;

/** What commander hands over for the settings: booleans for on/off flags, strings for the others. */
export type RawServeSettings = {
  [N in ServeSettingName]?: Settings[N] extends BooleanSetting ? boolean : string;
};

/** The settings a config file may give, by their dotted key (`rateLimit.perPrincipal`). */
export type ConfigFileSettings = {
  [N in ServeSettingName as Settings[N] extends { readonly key: infer K extends string }
    ? K
    : never]: ServeSettingValue<Settings[N]>;
};

/** The table as a list, in its order (the order of `--help` and of the README table). */
export const SERVE_SETTING_LIST = Object.entries(SERVE_SETTINGS) as [ServeSettingName, ServeSetting][];
