import { resolve } from 'node:path';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { App } from '../app/create-app.ts';
import { createApp } from '../app/create-app.ts';
import { loadConsentKey } from '../auth/consent-key.ts';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { createTokenVerifier } from '../auth/token-verifier.ts';
import { consoleRoutes } from '../console/console-routes.ts';
import { ToolContractError } from '../contract/tool-contract-error.ts';
import { ServeHooks } from '../extensions/serve-hooks.ts';
import { ProtocolError } from '../gateway/protocol-layer.ts';
import { operatorRoutes } from '../operator/operator-routes.ts';
import { PolicySetTimeout } from '../policy/policy-directory.ts';
import { PolicySetError } from '../policy/policy-problem.ts';
import { createLogger } from '../telemetry/logger.ts';
import { tracingFromEnvironment } from '../telemetry/tracing-setup.ts';
import { MCP_PATH } from '../transport/endpoint-defaults.ts';
import { type HttpRouteFamily, startHttpTransport } from '../transport/http-server.ts';
import { startStdioTransport } from '../transport/stdio-server.ts';
import { devTokenBanner } from './dev-token-banner.ts';
import { limitsSummary } from './serve-limits.ts';
import { ConfigError, type RawServeOptions, resolveServeConfig, type ServeConfig } from './serve-options.ts';
import { pinnedReleaseId } from './serve-release-pin.ts';
import { exitOnConfigError, type ServedModules, servedModules } from './served-modules.ts';
import { startupDeadline } from './startup-deadline.ts';

/** Resolves the configuration (every problem named, exit 2) and serves until SIGINT/SIGTERM. */
export async function runServe(raw: RawServeOptions & { readonly config: string }): Promise<void> {
  let served: ServedModules;
  let config: ServeConfig;
  try {
    served = await servedModules(raw.config, 'serve');
    config = resolveServeConfig(raw, served.settings);
  } catch (error) {
    exitOnConfigError('serve', error);
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(
      `toolgate serve: invalid configuration\n  ${error.message.split('\n').join('\n  ')}\n`,
    );
    process.exit(2);
  }
  const hooks = new ServeHooks(served.settings.extensions);
  if (config.enableTestApi && !hooks.offersTestApi) {
    process.stderr.write(
      `toolgate serve: --enable-test-api: no extension of the config ${served.file} provides a test API ` +
        "(the simulation kit's does: extensions: [simulationExtension] from @toolgate/simulation)\n",
    );
    process.exit(2);
  }
  const releaseId = await pinnedReleaseId(config, served);
  await serve(config, served, hooks, releaseId).catch((error: unknown) => {
    if (error instanceof PolicySetTimeout) {
      process.stderr.write(
        `toolgate serve: start-up gave up after ${error.timeoutMs} ms waiting on the policy set ${error.dir}; TOOLGATE_STARTUP_TIMEOUT_MS sets the bound\n`,
      );
      process.exit(2);
    }
    if (error instanceof PolicySetError) {
      process.stderr.write(`toolgate serve: ${error.message.split('\n').join('\n  ')}\n`);
      process.exit(2);
    }
    if (error instanceof ToolContractError) {
      // A module's tools are known only once it is created; they break rules like a config's tools do.
      process.stderr.write(
        `toolgate serve: invalid config ${served.file}:\n  ${error.message.split('\n').join('\n  ')}\n`,
      );
      process.exit(2);
    }
    // Start-up failures (database unreachable, port taken) are operator errors: say what, not where.
    process.stderr.write(`toolgate serve: could not start: ${(error as Error).message}\n`);
    process.exit(1);
  });
}

async function serve(
  config: ServeConfig,
  served: ServedModules,
  hooks: ServeHooks,
  releaseId: string | null,
): Promise<void> {
  const logger = createLogger();
  // Only the standard OTEL_* variables configure tracing; an unusable setting stops the start.
  const tracing = tracingFromEnvironment();
  const app = await createApp({
    tracing: tracing.tracing,
    ...(config.auditRetentionSeconds ? { auditRetentionSeconds: config.auditRetentionSeconds } : {}),
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    logger,
    retentionSeconds: config.retentionSeconds,
    ...(config.operatorConfirmationTtlSeconds
      ? { operatorConfirmationTtlSeconds: config.operatorConfirmationTtlSeconds }
      : {}),
    modules: served.modules,
    processMetrics: true,
    limits: config.limits,
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    readLanes: config.databaseReadLanes,
    tasksPageSize: config.tasksPageSize,
    ...(config.operations ? { operations: config.operations } : {}),
    ...policyOf(config),
    // Loading the set is one step of start-up, held to the same bound as importing the config.
    policyLoadTimeoutMs: startupDeadline('toolgate serve').timeoutMs,
    ...(releaseId === null ? {} : { releaseId }),
  });
  try {
    // An extension's world (the simulated modules' demo data) is inserted before anything is served.
    if (config.seed) await hooks.seed(app);
  } catch (error) {
    await app.close();
    throw error;
  }
  const stop = config.stdio ? await serveStdio(app, config) : await serveHttp(app, config, hooks);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await stop();
    await app.close();
    await tracing.shutdown().catch(() => undefined);
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

/** The test API, when asked for, from the extensions that have one for the served modules. */
function testApiFor(app: App, config: ServeConfig, hooks: ServeHooks): HttpRouteFamily[] {
  if (!config.enableTestApi) return [];
  const routes = hooks.testApiRoutes(app, { keys: config.keys });
  if (routes.length === 0) {
    app.logger.warn('--enable-test-api: no served module has simulation hooks; the test API is not mounted');
  }
  return routes;
}

async function serveHttp(app: App, config: ServeConfig, hooks: ServeHooks): Promise<() => Promise<void>> {
  const testApi = testApiFor(app, config, hooks);
  const routes = [operatorRoutes(app), ...testApi];
  const http = await startHttpTransport(app, {
    host: config.host,
    port: config.port,
    keys: config.keys,
    resourceUrl: config.audience,
    routes,
    publicRoutes: [consoleRoutes()],
    localPrincipalToken: config.localPrincipalToken,
    allowedHosts: config.allowedHosts,
    connectionLimits: config.connectionLimits,
    maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
    toolsPageSize: config.toolsPageSize,
    consentKey: loadConsentKey(config.dataDir),
  }).catch(async (error: unknown) => {
    await app.close();
    process.stderr.write(`toolgate serve: ${listenFailure(error, config.host, config.port)}\n`);
    process.exit(2);
  });
  const keys = config.keys.kind === 'dev' ? await loadOrCreateDevKeys(config.dataDir) : null;
  const dataDirOption = config.dataDir === resolve('.toolgate') ? '' : ` --data-dir ${config.dataDir}`;
  const demo = keys ? await hooks.welcome(app, { url: http.resource, keys, dataDirOption }) : null;
  process.stdout.write(devTokenBanner(http.resource, keys, demo, dataDirOption));
  process.stdout.write(limitsSummary(config, app.operations.auditRetentionSeconds));
  app.logger.info({ url: http.url, testApi: testApi.length > 0 }, 'serving MCP over HTTP');
  return () => http.close();
}

async function serveStdio(app: App, config: ServeConfig): Promise<() => Promise<void>> {
  const token = process.env.TOOLGATE_TOKEN;
  const audience = config.audience ?? `http://${config.host}:${config.port}${MCP_PATH}`;
  const verifier = await createTokenVerifier(
    config.keys,
    audience,
    { maxLifetimeSeconds: config.maxTokenLifetimeSeconds, anyDevAudience: true },
    app.logger,
  );
  const verdict = token
    ? await verifier.verify(token)
    : { ok: false as const, detail: 'TOOLGATE_TOKEN is not set' };
  if (!verdict.ok || token === undefined) {
    await app.close();
    process.stderr.write(
      `toolgate serve --stdio: refusing to start: ${verdict.ok ? 'no token' : verdict.detail}\n`,
    );
    process.exit(2);
  }
  // Checked again on every request: the session acts as the token's principal only while it is valid.
  const principalNow = async () => {
    const now = await verifier.verify(token);
    if (now.ok) return now.principal;
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `TOOLGATE_TOKEN is no longer accepted (${now.detail}); restart the server with a fresh token.`,
    );
  };
  const stdio = await startStdioTransport(app, verdict.principal, {}, principalNow, {
    toolsPageSize: config.toolsPageSize,
    consentKey: loadConsentKey(config.dataDir),
  });
  void stdio.closed.then(async () => {
    await app.close();
    process.exit(0);
  });
  return () => stdio.close();
}

/** The policy directory as configured. */
function policyOf(config: ServeConfig): { policyDir?: string } {
  return config.policyDir === undefined ? {} : { policyDir: config.policyDir };
}

/** Why the HTTP listener did not start, with what to do for the two causes a newcomer meets. */
function listenFailure(error: unknown, host: string, port: number): string {
  const { code, message } = error as { code?: unknown; message: string };
  if (code === 'EADDRINUSE') {
    return (
      `${message}\n  another process (perhaps another toolgate serve) listens on ${host}:${port}: stop it, ` +
      'or serve on another port with --port N or TOOLGATE_PORT (--port 0 takes any free one)'
    );
  }
  if (code === 'EACCES')
    return `${message}\n  ports below 1024 need privileges: use --port 8787 or another above 1023`;
  if (code === 'EADDRNOTAVAIL')
    return `${message}\n  no interface of this machine has the address ${host}: check --host or TOOLGATE_HOST`;
  return message;
}
