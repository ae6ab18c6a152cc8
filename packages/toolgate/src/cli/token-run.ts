import { z } from 'zod';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { mintToken } from '../auth/mint-token.ts';
import { ACTORS } from '../auth/principal.ts';
import { principalClaimsSchema } from '../auth/token-claims.ts';
import type { ToolgateConfig } from '../config/define-config.ts';
import { optionalCommandConfig } from '../config/discover-config.ts';
import { SERVE_SETTINGS } from '../config/serve-settings.ts';
import { dataDirProblem, defaultAudience, resolveDataDir } from './serve-options.ts';
import { exitOnConfigError, servedModules } from './served-modules.ts';

const tokenRequestSchema = z.strictObject({
  sub: principalClaimsSchema.shape.sub,
  tenant: principalClaimsSchema.shape.tenant,
  actor: z.enum(ACTORS),
  scopes: z.string().max(2000),
  groups: z
    .string()
    .max(4000)
    .refine((value) => !/\p{Cc}/u.test(value.replace(/[ \t]/g, '')), {
      message: 'must not contain control characters',
    }),
  ttl: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600),
  audience: z.url({ protocol: /^https?$/ }),
  port: z.coerce.number().int().min(1).max(65535).optional(),
});

/** Prints only a dev JWT the server with the same data dir accepts; every bad argument named, exit 2. */
export async function runTokenCommand(raw: Record<string, string | undefined>): Promise<void> {
  // With a config, the token is for the server that config runs: its data dir and its address.
  const configFile = optionalCommandConfig(raw.config);
  const settings =
    configFile === undefined
      ? {}
      : await servedModules(configFile).then(
          (served) => served.settings,
          (error: unknown) => {
            exitOnConfigError('token', error);
            throw error;
          },
        );
  const parsed = tokenRequestSchema.safeParse({
    sub: raw.sub,
    tenant: raw.tenant,
    actor: raw.actor,
    scopes: raw.scopes ?? '',
    groups: raw.groups ?? '',
    ttl: raw.ttl,
    audience: raw.audience ?? defaultAudience(settings, portOf(raw.port)),
    port: raw.port,
  });
  const dataDir = resolveDataDir(raw.dataDir, settings);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((i) => `--${String(i.path[0] ?? '?')}: ${i.message}`);
  const dirProblem = dataDirProblem(dataDir);
  if (dirProblem) problems.push(`--data-dir ${dataDir}: ${dirProblem}`);
  if (!parsed.success || problems.length > 0) {
    process.stderr.write(`toolgate token: invalid arguments\n  ${problems.join('\n  ')}\n`);
    process.exit(2);
  }
  const { sub, tenant, actor, scopes, groups, ttl, audience } = parsed.data;
  const accepted = acceptedLifetime(settings);
  if (ttl > accepted) {
    process.stderr.write(
      `toolgate token: warning: --ttl ${ttl} exceeds the ${accepted} seconds serve accepts; start serve with ` +
        `${SERVE_SETTINGS.maxTokenLifetimeSeconds.flag} ${ttl} (${SERVE_SETTINGS.maxTokenLifetimeSeconds.env}) or the token is refused.\n`,
    );
  }
  const keys = await loadOrCreateDevKeys(dataDir);
  const token = await mintToken(
    keys,
    {
      sub,
      tenant,
      actor,
      scopes: scopes.split(/\s+/).filter(Boolean),
      groups: groups.split(/\s+/).filter(Boolean),
    },
    { audience, ttlSeconds: ttl },
  );
  process.stdout.write(`${token}\n`);
}

/** The port for the audience; a bad value is left to the schema, which names it. */
function portOf(raw: string | undefined): number | undefined {
  const port = Number(raw);
  return raw !== undefined && Number.isInteger(port) && port > 0 && port <= 65535 ? port : undefined;
}

/** The longest token lifetime serve accepts with the same variables and config (and no flag). */
function acceptedLifetime(settings: ToolgateConfig): number {
  const lifetime = SERVE_SETTINGS.maxTokenLifetimeSeconds;
  const fromEnv = Number(process.env[lifetime.env] || Number.NaN);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return settings.maxTokenLifetimeSeconds ?? lifetime.default;
}
