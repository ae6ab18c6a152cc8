import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { KeySource } from '../auth/token-verifier.ts';
import type { ToolgateConfig } from '../config/define-config.ts';
import type { OperationsTuning } from '../operations/operations-tuning.ts';
import { DEFAULT_HOST, DEFAULT_PORT, MCP_PATH } from '../transport/endpoint-defaults.ts';

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
  audience?: string;
  retentionSeconds?: string;
  allowedHosts?: string;
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
  readonly retentionSeconds: number | undefined;
  readonly allowedHosts: readonly string[];
  readonly operations: Partial<OperationsTuning> | undefined;
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
const secondsSchema = z.coerce
  .number()
  .int()
  .min(60)
  .max(365 * 24 * 3600);
const urlSchema = z.url({ protocol: /^https?$/ });

/** The config file named by --config or TOOLGATE_CONFIG, if any. */
export function configFileOption(flag: string | undefined): string | undefined {
  return flag ?? env('TOOLGATE_CONFIG');
}

/** The data dir as the CLI uses it: --data-dir, TOOLGATE_DATA_DIR, the config's dataDir, or ./.toolgate. */
export function resolveDataDir(flag: string | undefined, file: ToolgateConfig = {}): string {
  return resolve(flag ?? env('TOOLGATE_DATA_DIR') ?? file.dataDir ?? '.toolgate');
}

/**
 * The audience dev tokens are minted for when the caller names none: what `serve` with the same
 * variables and config would take as its resource URL.
 */
export function defaultAudience(file: ToolgateConfig = {}): string {
  const explicit = env('TOOLGATE_AUDIENCE') ?? file.audience;
  if (explicit) return explicit;
  const host = env('TOOLGATE_HOST') ?? file.host ?? DEFAULT_HOST;
  const port = env('TOOLGATE_PORT') ?? file.port ?? DEFAULT_PORT;
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
  const retentionRaw = raw.retentionSeconds ?? env('TOOLGATE_RETENTION_SECONDS') ?? file.retentionSeconds;
  const retention = retentionRaw === undefined ? undefined : secondsSchema.safeParse(retentionRaw);
  if (retention && !retention.success) {
    problems.push(`--retention-seconds ${retentionRaw}: must be an integer from 60 to 31536000`);
  }
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
    keys: jwksUrl && issuer ? { kind: 'jwks', jwksUrl, issuer } : { kind: 'dev', dataDir },
    audience,
    retentionSeconds: retention?.data,
    allowedHosts: (raw.allowedHosts ?? env('TOOLGATE_ALLOWED_HOSTS') ?? file.allowedHosts?.join(',') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    operations: file.operations,
  };
}

/** Why the data dir cannot be used, or null: it must be (or become) a writable directory. */
export function dataDirProblem(dir: string): string | null {
  try {
    mkdirSync(dir, { recursive: true });
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
