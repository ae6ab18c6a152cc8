import { z } from 'zod';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { mintToken } from '../auth/mint-token.ts';
import { ACTORS } from '../auth/principal.ts';
import { principalClaimsSchema } from '../auth/token-claims.ts';
import { dataDirProblem, defaultAudience, resolveDataDir } from './serve-options.ts';
import { configFileOption, exitOnConfigError, servedModules } from './served-modules.ts';

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
});

/** Prints only a dev JWT the server with the same data dir accepts; every bad argument named, exit 2. */
export async function runTokenCommand(raw: Record<string, string | undefined>): Promise<void> {
  // With a config, the token is for the server that config runs: its data dir and its address.
  const settings =
    configFileOption(raw.config) === undefined
      ? {}
      : await servedModules(raw.config).then(
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
    audience: raw.audience ?? defaultAudience(settings),
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
