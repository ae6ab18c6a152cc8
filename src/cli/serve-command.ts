import type { Command } from 'commander';
import type { App } from '../app/create-app.ts';
import { createApp } from '../app/create-app.ts';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { createTokenVerifier } from '../auth/token-verifier.ts';
import { referenceDomains } from '../domains/reference-domains.ts';
import { createLogger } from '../telemetry/logger.ts';
import { MCP_PATH, startHttpTransport } from '../transport/http-server.ts';
import { startStdioTransport } from '../transport/stdio-server.ts';
import { devTokenBanner } from './dev-token-banner.ts';
import { ConfigError, type RawServeOptions, resolveServeConfig, type ServeConfig } from './serve-options.ts';

/** `toolgate serve`: the gateway over Streamable HTTP (default) or stdio. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Serve the tools over MCP Streamable HTTP (or stdio with --stdio).')
    .option('--host <host>', 'address to bind (TOOLGATE_HOST)', undefined)
    .option('--port <port>', 'port to bind, 0 for any free port (TOOLGATE_PORT, default 8787)')
    .option(
      '--data-dir <dir>',
      'SQLite database and dev signing key (TOOLGATE_DATA_DIR, default ./.toolgate)',
    )
    .option('--database-url <url>', 'PostgreSQL instead of SQLite (TOOLGATE_DATABASE_URL)')
    .option('--stdio', 'serve one client over stdin/stdout as the principal in TOOLGATE_TOKEN')
    .option(
      '--enable-test-api',
      'mount /test-api/* for tokens with scope test:control (TOOLGATE_ENABLE_TEST_API)',
    )
    .option('--no-seed', 'do not insert the demo world (TOOLGATE_SEED=0)')
    .option(
      '--local-principal-token <token>',
      'header-less HTTP requests act as this principal; loopback only (TOOLGATE_LOCAL_PRINCIPAL_TOKEN)',
    )
    .option('--jwks-url <url>', 'production: verify tokens with this JWKS (TOOLGATE_JWKS_URL)')
    .option('--issuer <iss>', 'production: required token issuer (TOOLGATE_ISSUER)')
    .option('--audience <url>', 'public resource URL tokens must name in aud (TOOLGATE_AUDIENCE)')
    .option('--retention-seconds <n>', 'keep operation records this long (TOOLGATE_RETENTION_SECONDS)')
    .option('--allowed-hosts <hosts>', 'extra Host names, comma-separated (TOOLGATE_ALLOWED_HOSTS)')
    .action(async (raw: RawServeOptions) => {
      let config: ServeConfig;
      try {
        config = resolveServeConfig(raw);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        process.stderr.write(
          `toolgate serve: invalid configuration\n  ${error.message.split('\n').join('\n  ')}\n`,
        );
        process.exit(2);
      }
      await serve(config).catch((error: unknown) => {
        // Start-up failures (database unreachable, port taken) are operator errors: say what, not where.
        process.stderr.write(`toolgate serve: could not start: ${(error as Error).message}\n`);
        process.exit(1);
      });
    });
}

async function serve(config: ServeConfig): Promise<void> {
  const logger = createLogger();
  const app = await createApp({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    logger,
    seed: config.seed,
    retentionSeconds: config.retentionSeconds,
    domains: referenceDomains,
    processMetrics: true,
  });
  const stop = config.stdio ? await serveStdio(app, config) : await serveHttp(app, config);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await stop();
    await app.close();
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

async function serveHttp(app: App, config: ServeConfig): Promise<() => Promise<void>> {
  const http = await startHttpTransport(app, {
    host: config.host,
    port: config.port,
    keys: config.keys,
    resourceUrl: config.audience,
    enableTestApi: config.enableTestApi,
    localPrincipalToken: config.localPrincipalToken,
    allowedHosts: config.allowedHosts,
  }).catch(async (error: unknown) => {
    await app.close();
    process.stderr.write(`toolgate serve: ${(error as Error).message}\n`);
    process.exit(2);
  });
  const keys = config.keys.kind === 'dev' ? await loadOrCreateDevKeys(config.dataDir) : null;
  process.stdout.write(await devTokenBanner(http.resource, app.principals, keys));
  app.logger.info({ url: http.url, testApi: config.enableTestApi }, 'serving MCP over HTTP');
  return () => http.close();
}

async function serveStdio(app: App, config: ServeConfig): Promise<() => Promise<void>> {
  const token = process.env.TOOLGATE_TOKEN;
  const audience = config.audience ?? `http://${config.host}:${config.port}${MCP_PATH}`;
  const verdict = token
    ? await (await createTokenVerifier(config.keys, audience)).verify(token)
    : { ok: false as const, detail: 'TOOLGATE_TOKEN is not set' };
  if (!verdict.ok) {
    await app.close();
    process.stderr.write(`toolgate serve --stdio: refusing to start: ${verdict.detail}\n`);
    process.exit(2);
  }
  const stdio = await startStdioTransport(app, verdict.principal);
  void stdio.closed.then(async () => {
    await app.close();
    process.exit(0);
  });
  return () => stdio.close();
}
