import type { Command } from 'commander';
import { z } from 'zod';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { DEFAULT_TOKEN_TTL_SECONDS, mintToken } from '../auth/mint-token.ts';
import { ACTORS } from '../auth/principal.ts';
import { principalClaimsSchema } from '../auth/token-claims.ts';
import { dataDirProblem, defaultAudience, resolveDataDir } from './serve-options.ts';

const tokenRequestSchema = z.strictObject({
  sub: principalClaimsSchema.shape.sub,
  tenant: principalClaimsSchema.shape.tenant,
  actor: z.enum(ACTORS),
  scopes: z.string().max(2000),
  ttl: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600),
  audience: z.url({ protocol: /^https?$/ }),
});

/** `toolgate token`: prints only a dev JWT the server with the same data dir accepts. */
export function registerTokenCommand(program: Command): void {
  program
    .command('token')
    .description('Print a dev token signed with the data dir key (nothing else is printed).')
    .requiredOption('--sub <subject>', 'subject (user or service id)')
    .requiredOption('--tenant <tenant>', 'tenant the subject acts in')
    .requiredOption('--actor <actor>', `one of ${ACTORS.join(', ')}`)
    .option('--scopes <scopes>', 'space-separated scopes', '')
    .option('--ttl <seconds>', 'lifetime in seconds', String(DEFAULT_TOKEN_TTL_SECONDS))
    .option('--data-dir <dir>', 'data dir of the server (TOOLGATE_DATA_DIR, default ./.toolgate)')
    .option('--audience <url>', 'resource URL of the server (default http://127.0.0.1:8787/mcp)')
    .action(async (raw: Record<string, string | undefined>) => {
      const parsed = tokenRequestSchema.safeParse({
        sub: raw.sub,
        tenant: raw.tenant,
        actor: raw.actor,
        scopes: raw.scopes ?? '',
        ttl: raw.ttl,
        audience: raw.audience ?? defaultAudience(),
      });
      const dataDir = resolveDataDir(raw.dataDir);
      const problems = parsed.success
        ? []
        : parsed.error.issues.map((i) => `--${String(i.path[0] ?? '?')}: ${i.message}`);
      const dirProblem = dataDirProblem(dataDir);
      if (dirProblem) problems.push(`--data-dir ${dataDir}: ${dirProblem}`);
      if (!parsed.success || problems.length > 0) {
        process.stderr.write(`toolgate token: invalid arguments\n  ${problems.join('\n  ')}\n`);
        process.exit(2);
      }
      const { sub, tenant, actor, scopes, ttl, audience } = parsed.data;
      const keys = await loadOrCreateDevKeys(dataDir);
      const token = await mintToken(
        keys,
        { sub, tenant, actor, scopes: scopes.split(/\s+/).filter(Boolean) },
        { audience, ttlSeconds: ttl },
      );
      process.stdout.write(`${token}\n`);
    });
}
