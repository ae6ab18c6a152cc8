import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { KeySource } from '../auth/token-verifier.ts';
import type { ToolgateConfig } from '../config/define-config.ts';
import { type RawServeSettings, SERVE_SETTINGS } from '../config/serve-settings.ts';
import type { RateLimitSettings } from '../gateway/rate-limit-layer.ts';
import type { OperationsTuning } from '../operations/operations-tuning.ts';
import { type HttpConnectionLimits, MCP_PATH } from '../transport/endpoint-defaults.ts';
import { serveSettingReader, variable } from './serve-setting-reader.ts';

/** Raw values as commander hands them over (strings, booleans or absent): the table's settings and --config. */
export interface RawServeOptions extends RawServeSettings {
  config?: string;
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
  /** Absent: the operations runtime's default (SERVE_SETTINGS.retentionSeconds.default). */
  readonly retentionSeconds: number | undefined;
  /** How long audit entries are kept; absent: the runtime's default of 90 days. */
  readonly auditRetentionSeconds: number | undefined;
  /** How long a call parked for an approver waits; absent: the runtime's default of 24 h. */
  readonly operatorConfirmationTtlSeconds: number | undefined;
  readonly allowedHosts: readonly string[];
  readonly operations: Partial<OperationsTuning> | undefined;
  /** Per-principal rate, reply bytes and writes in flight (defaults in SERVE_SETTINGS). */
  readonly limits: RateLimitSettings;
  readonly connectionLimits: HttpConnectionLimits;
  readonly maxTokenLifetimeSeconds: number;
  readonly databaseStatementTimeoutMs: number;
  readonly databaseReadLanes: number;
  readonly toolsPageSize: number;
  readonly tasksPageSize: number;
  /** The Cedar policy directory calls are decided by; absent: none. */
  readonly policyDir: string | undefined;
  /** The release record the gateway is pinned to; absent: it serves whatever it is given. */
  readonly releaseFile: string | undefined;
}

export class ConfigError extends Error {}

const S = SERVE_SETTINGS;

/** The data dir as the CLI uses it: --data-dir, TOOLGATE_DATA_DIR, the config's dataDir, or ./.toolgate. */
export function resolveDataDir(flag: string | undefined, file: ToolgateConfig = {}): string {
  return resolve(flag ?? variable(S.dataDir.env) ?? file.dataDir ?? S.dataDir.default);
}

/**
 * The audience dev tokens are minted for when the caller names none: what `serve` with the same
 * variables and config (and `--port`, when given) would take as its resource URL.
 */
export function defaultAudience(file: ToolgateConfig = {}, portFlag?: number): string {
  const explicit = variable(S.audience.env) ?? file.audience;
  if (explicit) return explicit;
  const host = variable(S.host.env) ?? file.host ?? S.host.default;
  const port = portFlag ?? variable(S.port.env) ?? file.port ?? S.port.default;
  return `http://${host}:${port}${MCP_PATH}`;
}

/**
 * Flags first, then TOOLGATE_* variables, then the config file's settings, then the defaults of
 * SERVE_SETTINGS; every problem named with its option.
 */
export function resolveServeConfig(raw: RawServeOptions, file: ToolgateConfig = {}): ServeConfig {
  const problems: string[] = [];
  const read = serveSettingReader(raw, file, problems);
  const port = read.number('port') ?? S.port.default;
  const dataDir = resolveDataDir(raw.dataDir, file);
  const dirProblem = dataDirProblem(dataDir);
  if (dirProblem) problems.push(`${S.dataDir.flag} ${dataDir}: ${dirProblem}`);
  const jwksUrl = read.text('jwksUrl');
  const issuer = read.text('issuer');
  if ((jwksUrl === undefined) !== (issuer === undefined)) {
    problems.push(
      `${S.jwksUrl.flag} and ${S.issuer.flag}: give both for production tokens, or neither for the dev key`,
    );
  }
  const audience = read.text('audience');
  const databaseUrl = read.text('databaseUrl');
  const retentionSeconds = read.number('retentionSeconds');
  const operatorConfirmationTtlSeconds = read.number('operatorConfirmationTtlSeconds');
  const auditRetentionSeconds = read.number('auditRetentionSeconds');
  const rate = read.number('rateLimitPerPrincipal') ?? S.rateLimitPerPrincipal.default;
  const replyBytes =
    read.number('replyBytesPerSecondPerPrincipal') ?? S.replyBytesPerSecondPerPrincipal.default;
  const writesInFlight =
    read.number('maxWritesInFlightPerPrincipal') ?? S.maxWritesInFlightPerPrincipal.default;
  const connectionLimits: HttpConnectionLimits = {
    headersTimeoutMs: read.number('headersTimeoutMs') ?? S.headersTimeoutMs.default,
    requestTimeoutMs: read.number('requestTimeoutMs') ?? S.requestTimeoutMs.default,
    keepAliveTimeoutMs: read.number('keepAliveTimeoutMs') ?? S.keepAliveTimeoutMs.default,
    maxConnections: read.number('maxConnections') ?? S.maxConnections.default,
  };
  const maxTokenLifetimeSeconds = read.number('maxTokenLifetimeSeconds') ?? S.maxTokenLifetimeSeconds.default;
  const databaseStatementTimeoutMs =
    read.number('databaseStatementTimeoutMs') ?? S.databaseStatementTimeoutMs.default;
  const databaseReadLanes = read.number('databaseReadLanes') ?? S.databaseReadLanes.default;
  const toolsPageSize = read.number('toolsPageSize') ?? S.toolsPageSize.default;
  const tasksPageSize = read.number('tasksPageSize') ?? S.tasksPageSize.default;
  const policy = read.text('policy');
  const release = read.text('release');
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));
  return {
    host: read.text('host') ?? S.host.default,
    port,
    dataDir,
    databaseUrl,
    stdio: read.flag('stdio') ?? S.stdio.default,
    enableTestApi: read.flag('enableTestApi') ?? S.enableTestApi.default,
    seed: read.flag('seed') ?? S.seed.default,
    localPrincipalToken: read.text('localPrincipalToken'),
    keys:
      jwksUrl && issuer
        ? {
            kind: 'jwks',
            jwksUrl,
            issuer,
            requireTokenType: read.flag('requireTokenType') ?? S.requireTokenType.default,
          }
        : { kind: 'dev', dataDir },
    audience,
    retentionSeconds,
    auditRetentionSeconds,
    operatorConfirmationTtlSeconds,
    allowedHosts: read.list('allowedHosts') ?? [],
    operations: file.operations,
    limits: {
      // 0 turns each of the two budgets off.
      ...onUnlessZero('perPrincipal', rate),
      ...onUnlessZero('replyBytesPerSecondPerPrincipal', replyBytes),
      perPrincipalByKind: file.rateLimit?.byKind,
      writesInFlightPerPrincipal: writesInFlight,
      fleet: read.flag('fleetLimits') ?? S.fleetLimits.default,
    },
    connectionLimits,
    policyDir: policy === undefined ? undefined : resolve(policy),
    releaseFile: release === undefined ? undefined : resolve(release),
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
