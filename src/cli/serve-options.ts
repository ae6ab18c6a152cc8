import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAX_TOKEN_LIFETIME_SECONDS } from '../auth/token-defaults.ts';
import type { KeySource } from '../auth/token-verifier.ts';
import type { ToolgateConfig } from '../config/define-config.ts';
import {
  DEFAULT_RATE_LIMIT_PER_PRINCIPAL,
  DEFAULT_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL,
  DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL,
} from '../gateway/limit-defaults.ts';
import type { RateLimitSettings } from '../gateway/rate-limit-layer.ts';
import type { OperationsTuning } from '../operations/operations-tuning.ts';
import { DEFAULT_READ_LANES, DEFAULT_STATEMENT_TIMEOUT_MS } from '../store/postgres/postgres-defaults.ts';
import {
  DEFAULT_CONNECTION_LIMITS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_TASKS_PAGE_SIZE,
  type HttpConnectionLimits,
  MCP_PATH,
} from '../transport/endpoint-defaults.ts';
import { DEFAULT_TOOLS_PAGE_SIZE } from '../transport/serialized-listings.ts';

/** Raw values as commander hands them over (strings, booleans or absent). */
export interface RawServeOptions {
  host?: string;
  port?: string;
  dataDir?: string;
  databaseUrl?: string;
  stdio?: boolean;
  enableTestApi?: boolean;
  seed?: boolean;
  localPrincipalToken?: string;
  jwksUrl?: string;
  issuer?: string;
  requireTokenType?: boolean;
  audience?: string;
  retentionSeconds?: string;
  operatorConfirmationTtlSeconds?: string;
  allowedHosts?: string;
  config?: string;
  rateLimitPerPrincipal?: string;
  replyBytesPerSecondPerPrincipal?: string;
  auditRetentionSeconds?: string;
  maxWritesInFlightPerPrincipal?: string;
  headersTimeoutMs?: string;
  requestTimeoutMs?: string;
  keepAliveTimeoutMs?: string;
  maxConnections?: string;
  maxTokenLifetimeSeconds?: string;
  databaseStatementTimeoutMs?: string;
  databaseReadLanes?: string;
  toolsPageSize?: string;
  tasksPageSize?: string;
  policy?: string;
}

export interface ServeConfig {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly stdio: boolean;
  readonly enableTestApi: boolean;
  readonly seed: boolean;
  readonly localPrincipalToken: string | undefined;
  readonly keys: KeySource;
  /** Explicit resource URL / audience; the bound address when absent. */
  readonly audience: string | undefined;
  readonly retentionSeconds: number | undefined;
  /** How long audit entries are kept (default 90 days). */
  readonly auditRetentionSeconds: number | undefined;
  /** How long a call parked for an approver waits (default 24 h). */
  readonly operatorConfirmationTtlSeconds: number | undefined;
  readonly allowedHosts: readonly string[];
  readonly operations: Partial<OperationsTuning> | undefined;
  /** Per-principal rate (default 100/s), reply bytes (default 8 MiB/s) and writes in flight (default 8). */
  readonly limits: RateLimitSettings;
  readonly connectionLimits: HttpConnectionLimits;
  readonly maxTokenLifetimeSeconds: number;
  readonly databaseStatementTimeoutMs: number;
  readonly databaseReadLanes: number;
  readonly toolsPageSize: number;
  readonly tasksPageSize: number;
  /** The Cedar policy directory calls are decided by; absent: the demo's own when serving it, else none. */
  readonly policyDir: string | undefined;
}

export class ConfigError extends Error {}

const env = (name: string): string | undefined => {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
};
const envFlag = (name: string): boolean | undefined => {
  const value = env(name);
  return value === undefined ? undefined : !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
};

const portSchema = z.coerce.number().int().min(0).max(65535);
const urlSchema = z.url({ protocol: /^https?$/ });

/** The data dir as the CLI uses it: --data-dir, TOOLGATE_DATA_DIR, the config's dataDir, or ./.toolgate. */
export function resolveDataDir(flag: string | undefined, file: ToolgateConfig = {}): string {
  return resolve(flag ?? env('TOOLGATE_DATA_DIR') ?? file.dataDir ?? '.toolgate');
}

/**
 * The audience dev tokens are minted for when the caller names none: what `serve` with the same
 * variables and config (and `--port`, when given) would take as its resource URL.
 */
export function defaultAudience(file: ToolgateConfig = {}, portFlag?: number): string {
  const explicit = env('TOOLGATE_AUDIENCE') ?? file.audience;
  if (explicit) return explicit;
  const host = env('TOOLGATE_HOST') ?? file.host ?? DEFAULT_HOST;
  const port = portFlag ?? env('TOOLGATE_PORT') ?? file.port ?? DEFAULT_PORT;
  return `http://${host}:${port}${MCP_PATH}`;
}

/**
 * Flags first, then TOOLGATE_* variables, then the config file's settings, then defaults; every
 * problem named with its option.
 */
export function resolveServeConfig(raw: RawServeOptions, file: ToolgateConfig = {}): ServeConfig {
  const problems: string[] = [];
  const portRaw = raw.port ?? env('TOOLGATE_PORT') ?? file.port;
  const port = portSchema.safeParse(portRaw ?? DEFAULT_PORT);
  if (!port.success) problems.push(`--port ${portRaw}: must be an integer 0-65535`);
  const dataDir = resolveDataDir(raw.dataDir, file);
  const dirProblem = dataDirProblem(dataDir);
  if (dirProblem) problems.push(`--data-dir ${dataDir}: ${dirProblem}`);
  const jwksUrl = raw.jwksUrl ?? env('TOOLGATE_JWKS_URL') ?? file.jwksUrl;
  const issuer = raw.issuer ?? env('TOOLGATE_ISSUER') ?? file.issuer;
  const audience = raw.audience ?? env('TOOLGATE_AUDIENCE') ?? file.audience;
  if ((jwksUrl === undefined) !== (issuer === undefined)) {
    problems.push('--jwks-url and --issuer: give both for production tokens, or neither for the dev key');
  }
  if (jwksUrl !== undefined && !urlSchema.safeParse(jwksUrl).success)
    problems.push(`--jwks-url ${jwksUrl}: not an http(s) URL`);
  if (audience !== undefined && !urlSchema.safeParse(audience).success)
    problems.push(`--audience ${audience}: not an http(s) URL`);
  const databaseUrl = raw.databaseUrl ?? env('TOOLGATE_DATABASE_URL') ?? file.databaseUrl;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('--database-url: must start with postgres:// or postgresql://');
  }
  const number = (
    flag: string,
    value: string | number | undefined,
    { schema, rule }: NumberRange,
  ): number | undefined => {
    if (value === undefined) return undefined;
    const parsed = schema.safeParse(Number(value));
    if (!parsed.success || String(value).trim() === '') {
      problems.push(`${flag} ${value}: must be ${rule}`);
      return undefined;
    }
    return parsed.data;
  };
  const ms = integerRange(100, 600_000, 'an integer number of milliseconds');
  const seconds = integerRange(60, 31_536_000);
  const retentionSeconds = number(
    '--retention-seconds',
    raw.retentionSeconds ?? env('TOOLGATE_RETENTION_SECONDS') ?? file.retentionSeconds,
    seconds,
  );
  const operatorConfirmationTtlSeconds = number(
    '--operator-confirmation-ttl-seconds',
    raw.operatorConfirmationTtlSeconds ??
      env('TOOLGATE_OPERATOR_CONFIRMATION_TTL_SECONDS') ??
      file.operatorConfirmationTtlSeconds,
    seconds,
  );
  const auditRetentionSeconds = number(
    '--audit-retention-seconds',
    raw.auditRetentionSeconds ?? env('TOOLGATE_AUDIT_RETENTION_SECONDS'),
    integerRange(86_400, 3_153_600_000, 'a whole number of seconds'),
  );
  // On by default; 0 turns each off.
  const rate = number(
    '--rate-limit-per-principal',
    raw.rateLimitPerPrincipal ?? env('TOOLGATE_RATE_LIMIT_PER_PRINCIPAL') ?? file.rateLimit?.perPrincipal,
    {
      schema: z.number().min(0).max(100_000),
      rule: 'a number of calls per second from 0 (off) to 100000',
    },
  );
  const replyBytes = number(
    '--reply-bytes-per-second-per-principal',
    raw.replyBytesPerSecondPerPrincipal ?? env('TOOLGATE_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL'),
    integerRange(0, 1_099_511_627_776, 'a whole number of bytes, 0 (off)'),
  );
  const writesInFlight = number(
    '--max-writes-in-flight-per-principal',
    raw.maxWritesInFlightPerPrincipal ??
      env('TOOLGATE_MAX_WRITES_IN_FLIGHT_PER_PRINCIPAL') ??
      file.rateLimit?.writesInFlightPerPrincipal,
    integerRange(1, 10_000),
  );
  const http = file.http ?? {};
  const connectionLimits: HttpConnectionLimits = {
    headersTimeoutMs:
      number(
        '--headers-timeout-ms',
        raw.headersTimeoutMs ?? env('TOOLGATE_HEADERS_TIMEOUT_MS') ?? http.headersTimeoutMs,
        ms,
      ) ?? DEFAULT_CONNECTION_LIMITS.headersTimeoutMs,
    requestTimeoutMs:
      number(
        '--request-timeout-ms',
        raw.requestTimeoutMs ?? env('TOOLGATE_REQUEST_TIMEOUT_MS') ?? http.requestTimeoutMs,
        ms,
      ) ?? DEFAULT_CONNECTION_LIMITS.requestTimeoutMs,
    keepAliveTimeoutMs:
      number(
        '--keep-alive-timeout-ms',
        raw.keepAliveTimeoutMs ?? env('TOOLGATE_KEEP_ALIVE_TIMEOUT_MS') ?? http.keepAliveTimeoutMs,
        ms,
      ) ?? DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs,
    maxConnections:
      number(
        '--max-connections',
        raw.maxConnections ?? env('TOOLGATE_MAX_CONNECTIONS') ?? http.maxConnections,
        integerRange(1, 1_000_000),
      ) ?? DEFAULT_CONNECTION_LIMITS.maxConnections,
  };
  const maxTokenLifetimeSeconds =
    number(
      '--max-token-lifetime-seconds',
      raw.maxTokenLifetimeSeconds ??
        env('TOOLGATE_MAX_TOKEN_LIFETIME_SECONDS') ??
        file.maxTokenLifetimeSeconds,
      seconds,
    ) ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS;
  const databaseStatementTimeoutMs =
    number(
      '--database-statement-timeout-ms',
      raw.databaseStatementTimeoutMs ??
        env('TOOLGATE_DATABASE_STATEMENT_TIMEOUT_MS') ??
        file.databaseStatementTimeoutMs,
      ms,
    ) ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const databaseReadLanes =
    number(
      '--database-read-lanes',
      raw.databaseReadLanes ?? env('TOOLGATE_DATABASE_READ_LANES') ?? file.databaseReadLanes,
      integerRange(0, 16),
    ) ?? DEFAULT_READ_LANES;
  const toolsPageSize =
    number(
      '--tools-page-size',
      raw.toolsPageSize ?? env('TOOLGATE_TOOLS_PAGE_SIZE') ?? file.toolsPageSize,
      integerRange(1, 10_000),
    ) ?? DEFAULT_TOOLS_PAGE_SIZE;
  const tasksPageSize =
    number(
      '--tasks-page-size',
      raw.tasksPageSize ?? env('TOOLGATE_TASKS_PAGE_SIZE') ?? file.tasksPageSize,
      integerRange(1, 1_000),
    ) ?? DEFAULT_TASKS_PAGE_SIZE;
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return {
    host: raw.host ?? env('TOOLGATE_HOST') ?? file.host ?? DEFAULT_HOST,
    port: port.data!,
    dataDir,
    databaseUrl,
    stdio: raw.stdio ?? envFlag('TOOLGATE_STDIO') ?? false,
    enableTestApi: raw.enableTestApi ?? envFlag('TOOLGATE_ENABLE_TEST_API') ?? file.enableTestApi ?? false,
    seed: raw.seed === false ? false : (envFlag('TOOLGATE_SEED') ?? file.seed ?? true),
    localPrincipalToken: raw.localPrincipalToken ?? env('TOOLGATE_LOCAL_PRINCIPAL_TOKEN'),
    keys:
      jwksUrl && issuer
        ? {
            kind: 'jwks',
            jwksUrl,
            issuer,
            requireTokenType:
              raw.requireTokenType === false
                ? false
                : (envFlag('TOOLGATE_REQUIRE_TOKEN_TYPE') ?? file.requireTokenType ?? true),
          }
        : { kind: 'dev', dataDir },
    audience,
    retentionSeconds,
    auditRetentionSeconds,
    operatorConfirmationTtlSeconds,
    allowedHosts: (raw.allowedHosts ?? env('TOOLGATE_ALLOWED_HOSTS') ?? file.allowedHosts?.join(',') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    operations: file.operations,
    limits: {
      ...onUnlessZero('perPrincipal', rate ?? DEFAULT_RATE_LIMIT_PER_PRINCIPAL),
      ...onUnlessZero(
        'replyBytesPerSecondPerPrincipal',
        replyBytes ?? DEFAULT_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL,
      ),
      perPrincipalByKind: file.rateLimit?.byKind,
      writesInFlightPerPrincipal: writesInFlight ?? DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL,
    },
    connectionLimits,
    policyDir: policyDirOf(raw.policy ?? env('TOOLGATE_POLICY') ?? file.policy),
    maxTokenLifetimeSeconds,
    databaseStatementTimeoutMs,
    databaseReadLanes,
    toolsPageSize,
    tasksPageSize,
  };
}

/** Why the data dir cannot be used, or null: it must be (or become) a writable directory. */
export function dataDirProblem(dir: string): string | null {
  try {
    // Owner-only: the data dir holds customer data and the dev signing key.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!statSync(dir).isDirectory()) return 'exists but is not a directory';
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return `not readable and writable by this user (${code})`;
    if (code === 'ENOTDIR' || code === 'EEXIST') return 'a parent path is not a directory';
    if (code === 'EROFS') return 'on a read-only file system';
    return `cannot be used (${code ?? (error as Error).message})`;
  }
}

/** A limit set to 0 is off: the setting is left out. */
function onUnlessZero<K extends string>(key: K, value: number): Partial<Record<K, number>> {
  return value === 0 ? {} : ({ [key]: value } as Record<K, number>);
}

/** What a numeric setting accepts, and how its refusal words it. */
interface NumberRange {
  readonly schema: z.ZodNumber;
  readonly rule: string;
}

/** An integer setting's bounds, as the schema and as the words of its refusal, from the same numbers. */
function integerRange(min: number, max: number, what = 'an integer'): NumberRange {
  return { schema: z.number().int().min(min).max(max), rule: `${what} from ${min} to ${max}` };
}

const policyDirOf = (dir: string | undefined): string | undefined =>
  dir === undefined ? undefined : resolve(dir);
