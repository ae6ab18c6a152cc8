import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app/create-app.ts';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { mintToken } from '../auth/mint-token.ts';
import {
  RESOURCE_METADATA_PATH,
  resourceMetadataDocument,
  resourceMetadataUrl,
} from '../auth/resource-metadata.ts';
import { createTokenVerifier, type KeySource, type TokenVerifier } from '../auth/token-verifier.ts';
import { BearerAuthenticator } from './bearer-authenticator.ts';
import { serveHealth, serveMetrics, serveReadiness } from './health-routes.ts';
import { HostGuard, isLoopbackHost } from './host-guard.ts';
import { sendJson, sendJsonRpcError } from './http-replies.ts';
import { serveMcpPost } from './mcp-endpoint.ts';
import { createMcpServer, principalFromRequest } from './mcp-server.ts';
import { MultiplexedTransport } from './multiplexed-transport.ts';
import { DEFAULT_BODY_LIMIT_BYTES } from './read-body.ts';
import { createTestApi, TEST_CONTROL_SCOPE } from './test-api.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const MCP_PATH = '/mcp';
const SHUTDOWN_GRACE_MS = 5_000;

export interface HttpTransportOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Where token verification keys come from. */
  readonly keys: KeySource;
  /** The public resource URL when it differs from the bound address (behind a proxy); also `aud`. */
  readonly resourceUrl?: string;
  readonly enableTestApi?: boolean;
  /** Header-less requests act as this token's principal; loopback binds only. */
  readonly localPrincipalToken?: string;
  /** Host names besides the loopback names that may appear in Host/Origin. */
  readonly allowedHosts?: readonly string[];
  readonly bodyLimitBytes?: number;
}

export interface HttpTransport {
  /** The MCP endpoint, e.g. http://127.0.0.1:8787/mcp. */
  readonly url: string;
  readonly port: number;
  /** The resource URL tokens must carry as `aud`. */
  readonly resource: string;
  readonly verifier: TokenVerifier;
  close(): Promise<void>;
}

/**
 * Serves MCP Streamable HTTP (stateless, JSON answers) plus the metadata, health, metrics and test
 * API routes on node:http. One SDK server answers every request through a multiplexing transport.
 */
export async function startHttpTransport(app: App, options: HttpTransportOptions): Promise<HttpTransport> {
  const host = options.host ?? DEFAULT_HOST;
  if (options.localPrincipalToken !== undefined && !isLoopbackHost(host)) {
    throw new Error(
      `--local-principal-token is refused: the server is bound to ${host}, not a loopback address`,
    );
  }
  let route: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | null = null;
  const server = createServer((req, res) => {
    if (!route) return sendJson(res, 503, { status: 'starting' });
    route(req, res).catch((error: unknown) => {
      app.logger.error({ err: error, path: req.url?.split('?', 1)[0] }, 'HTTP request failed');
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}${MCP_PATH}`;
  const resource = options.resourceUrl ?? url;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  try {
    const verifier = await createTokenVerifier(options.keys, resource);
    await refuseUnverifiableLocalToken(verifier, options.localPrincipalToken);
    const metadataUrl = resourceMetadataUrl(resource);
    const authenticator = new BearerAuthenticator(
      verifier,
      options.localPrincipalToken ?? null,
      metadataUrl,
      app.logger,
      app.metrics,
    );
    const transport = new MultiplexedTransport();
    const mcp = createMcpServer(app.gateway, principalFromRequest);
    await mcp.connect(transport);
    const guard = new HostGuard(host, options.allowedHosts);
    const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
    const scopes = new Set(app.registry.all().flatMap((t) => t.definition.scopes));
    if (options.enableTestApi) scopes.add(TEST_CONTROL_SCOPE);
    const metadata = resourceMetadataDocument({
      resource,
      authorizationServers: options.keys.kind === 'jwks' ? [options.keys.issuer] : [],
      scopesSupported: [...scopes].sort(),
    });
    const testApi = options.enableTestApi ? await testApiFor(app, options.keys, resource) : null;

    route = async (req, res) => {
      const rawUrl = req.url ?? '/';
      const query = rawUrl.indexOf('?');
      const path = query === -1 ? rawUrl : rawUrl.slice(0, query);
      if (path === MCP_PATH || path.startsWith('/test-api/')) {
        const refusal = guard.check(req);
        if (refusal) return sendJsonRpcError(res, 403, -32000, `Forbidden: ${refusal}`);
      }
      if (path === MCP_PATH) {
        if (req.method === 'POST')
          return serveMcpPost(req, res, { transport, authenticator, bodyLimitBytes });
        return sendJsonRpcError(res, 405, -32000, 'Method Not Allowed: this server is stateless; POST only', {
          allow: 'POST',
        });
      }
      if (
        req.method === 'GET' &&
        (path === RESOURCE_METADATA_PATH || path === '/.well-known/oauth-protected-resource')
      ) {
        return sendJson(res, 200, metadata, { 'cache-control': 'max-age=300' });
      }
      if (req.method === 'GET' && path === '/healthz') return serveHealth(res);
      if (req.method === 'GET' && path === '/readyz') return serveReadiness(res, app);
      if (req.method === 'GET' && path === '/metrics') return serveMetrics(res, app);
      if (testApi && path.startsWith('/test-api/')) {
        const auth = await authenticator.authenticate(req);
        if (!auth.ok) return authenticator.refuse(res, auth);
        return testApi(req, res, new URL(rawUrl, 'http://localhost'), auth.principal);
      }
      return sendJson(res, 404, { error: 'not_found' });
    };
    return {
      url,
      port,
      resource,
      verifier,
      /** Stops accepting connections, lets calls in flight finish (up to a grace period), then stops. */
      async close() {
        const closed = stop();
        server.closeIdleConnections();
        const deadline = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        await closed;
        clearTimeout(deadline);
        route = null;
        await mcp.close();
      },
    };
  } catch (error) {
    server.closeAllConnections();
    await stop();
    throw error;
  }
}

async function refuseUnverifiableLocalToken(
  verifier: TokenVerifier,
  token: string | undefined,
): Promise<void> {
  if (token === undefined) return;
  const verdict = await verifier.verify(token);
  if (!verdict.ok) throw new Error(`--local-principal-token is not accepted: ${verdict.detail}`);
}

async function testApiFor(app: App, keys: KeySource, audience: string) {
  const devKeys = keys.kind === 'dev' ? await loadOrCreateDevKeys(keys.dataDir) : null;
  return createTestApi(app, {
    mintDemoToken: devKeys
      ? (p) =>
          mintToken(
            devKeys,
            { sub: p.subject, tenant: p.tenant, actor: p.actor, scopes: p.scopes },
            { audience },
          )
      : null,
  });
}
