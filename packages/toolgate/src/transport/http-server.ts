import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../app/create-app.ts';
import { loadConsentKey } from '../auth/consent-key.ts';
import type { Principal } from '../auth/principal.ts';
import {
  RESOURCE_METADATA_PATH,
  resourceMetadataDocument,
  resourceMetadataUrl,
} from '../auth/resource-metadata.ts';
import { createTokenVerifier, type KeySource, type TokenVerifier } from '../auth/token-verifier.ts';
import { servedVersion } from '../contract/tool-versions.ts';
import { httpRouteLabel } from '../telemetry/http-route-label.ts';
import { BearerAuthenticator } from './bearer-authenticator.ts';
import { ConfirmationElicitation } from './confirmation-elicitation.ts';
import { DirectMethods } from './direct-methods.ts';
import { Endpoint2026 } from './endpoint-2026.ts';
import {
  DEFAULT_CONNECTION_LIMITS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  type HttpConnectionLimits,
  MCP_PATH,
} from './endpoint-defaults.ts';
import { serveHealth, serveMetrics, serveReadiness } from './health-routes.ts';
import { HostGuard, isLoopbackHost } from './host-guard.ts';
import { sendJson, sendJsonRpcError } from './http-replies.ts';
import { ANY_METHOD, HttpRouter } from './http-router.ts';
import { DEFAULT_JSON_BOUNDS, type JsonBounds } from './json-bounds.ts';
import { DEFAULT_REPLY_LIMIT_BYTES, serveMcpPost } from './mcp-endpoint.ts';
import { MultiplexedTransport } from './multiplexed-transport.ts';
import { DEFAULT_BODY_LIMIT_BYTES } from './read-body.ts';
import { RequestMeter, ROUTE_REQUEST_WEIGHT } from './request-metering.ts';
import { DEFAULT_TOOLS_PAGE_SIZE, SerializedListings } from './serialized-listings.ts';
import { createToolServer, principalFromRequest, type ToolServerOptions } from './tool-server.ts';

const SHUTDOWN_GRACE_MS = 5_000;
/** How long past the slowest tool's timeout a request may go unanswered before the transport answers it. */
const REPLY_DEADLINE_MARGIN_MS = 10_000;

export interface HttpTransportOptions {
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  /** Where token verification keys come from. */
  readonly keys: KeySource;
  /** The public resource URL when it differs from the bound address (behind a proxy); also `aud`. */
  readonly resourceUrl?: string;
  /** Extra authenticated route families mounted beside /mcp (the simulation kit's test API is one). */
  readonly routes?: readonly HttpRouteFamily[];
  /** Unauthenticated GET routes (Host-guarded), e.g. the operator console's static page. */
  readonly publicRoutes?: readonly PublicRouteFamily[];
  /** Header-less requests act as this token's principal; loopback binds only. */
  readonly localPrincipalToken?: string;
  /** Host names besides the loopback names that may appear in Host/Origin. */
  readonly allowedHosts?: readonly string[];
  readonly bodyLimitBytes?: number;
  /** Object keys (in all) and nesting depth one POST body may hold (default 10000 keys, 64 levels). */
  readonly jsonBounds?: Partial<JsonBounds>;
  /** The most bytes one POST's answer may hold. */
  readonly replyLimitBytes?: number;
  /** Tools per tools/list page (default 100); a longer listing is paged with `nextCursor`. */
  readonly toolsPageSize?: number;
  readonly connectionLimits?: Partial<HttpConnectionLimits>;
  /** The longest lifetime (`exp` - `iat`) a bearer token may have (default 24 h). */
  readonly maxTokenLifetimeSeconds?: number;
  /** Answer a request the server has not answered after this long (default: slowest tool timeout + 10 s). */
  readonly replyDeadlineMs?: number;
  /**
   * The consent key (see loadConsentKey): the same on every gateway that may receive a confirmation's
   * retry. Absent: with dev keys, the data dir's; otherwise no client is asked to confirm (tools fall
   * back as their contract says).
   */
  readonly consentKey?: string | Uint8Array;
  /** How long a person has to answer a confirmation question (default 600 s). */
  readonly confirmationTtlSeconds?: number;
}

/** What an extra route family's handler gets for one request that passed the Host guard and the bearer check. */
export interface RouteRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly principal: Principal;
  /** The resource URL tokens must carry as `aud`. */
  readonly resource: string;
}

/** Routes under one path prefix, answered for verified principals only. */
export interface HttpRouteFamily {
  /** Path prefix, starting and ending with "/", e.g. "/test-api/". */
  readonly prefix: string;
  /** Scopes the routes check, published in the protected-resource metadata. */
  readonly scopes: readonly string[];
  handle(request: RouteRequest): Promise<void>;
}

/** Static routes under one path prefix that need no token: they must serve no data. */
export interface PublicRouteFamily {
  /** Path prefix, e.g. "/console". */
  readonly prefix: string;
  handle(request: { req: IncomingMessage; res: ServerResponse; url: URL }): Promise<void>;
}

/** One route of the gateway's own table; `family` names a mounted family in the request metrics. */
interface GatewayRoute {
  readonly family?: string;
  serve(req: IncomingMessage, res: ServerResponse, rawUrl: string): Promise<void> | void;
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
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
  // Node checks header and request timeouts on this interval (30 s by default), so it bounds their precision.
  const checkEveryMs = Math.min(1_000, limits.headersTimeoutMs, limits.requestTimeoutMs);
  const server = createServer({ connectionsCheckingInterval: checkEveryMs }, (req, res) => {
    if (!route) return sendJson(res, 503, { status: 'starting' });
    route(req, res).catch((error: unknown) => {
      app.logger.error({ err: error, path: req.url?.split('?', 1)[0] }, 'HTTP request failed');
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal error');
      else res.destroy();
    });
  });
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
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
    const verifier = await createTokenVerifier(
      options.keys,
      resource,
      { maxLifetimeSeconds: options.maxTokenLifetimeSeconds },
      app.logger,
    );
    await refuseUnverifiableLocalToken(verifier, options.localPrincipalToken);
    const metadataUrl = resourceMetadataUrl(resource);
    const authenticator = new BearerAuthenticator(
      verifier,
      options.localPrincipalToken ?? null,
      metadataUrl,
      app.logger,
      app.metrics,
    );
    const slowestToolMs = Math.max(0, ...app.registry.all().map((t) => t.definition.timeoutMs));
    const transport = new MultiplexedTransport({
      replyDeadlineMs: options.replyDeadlineMs ?? slowestToolMs + REPLY_DEADLINE_MARGIN_MS,
    });
    const guard = new HostGuard(host, options.allowedHosts);
    const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
    const replyLimitBytes = options.replyLimitBytes ?? DEFAULT_REPLY_LIMIT_BYTES;
    const jsonBounds = { ...DEFAULT_JSON_BOUNDS, ...options.jsonBounds };
    const meter = new RequestMeter(app.gateway.limits);
    const servesTool = (name: string) => app.registry.get(name) !== undefined;
    const paramHeadersOf = (name: string, principal: Principal) =>
      servedVersion(app.registry, name, principal)?.paramHeaders ?? [];
    const direct = new DirectMethods(
      app.gateway,
      new SerializedListings(app.gateway, options.toolsPageSize ?? DEFAULT_TOOLS_PAGE_SIZE),
    );
    const consentKey =
      options.consentKey ?? (options.keys.kind === 'dev' ? loadConsentKey(options.keys.dataDir) : undefined);
    if (consentKey === undefined && app.registry.all().some((t) => t.definition.confirm)) {
      app.logger.warn(
        'no consent key: confirmations are not asked through clients; tools answer with their fallback',
      );
    }
    // One definition of the tools for both revisions: the 2025-11-25 traffic the direct path leaves
    // goes to one server through the multiplexed transport; 2026-07-28 builds a server per request.
    const served: ToolServerOptions = {
      gateway: app.gateway,
      toolsPageSize: options.toolsPageSize ?? DEFAULT_TOOLS_PAGE_SIZE,
      tasks: app.tasks,
      ...(consentKey !== undefined
        ? {
            confirmations: new ConfirmationElicitation({
              key: consentKey,
              ...(options.confirmationTtlSeconds ? { ttlSeconds: options.confirmationTtlSeconds } : {}),
            }),
          }
        : {}),
    };
    const server2025 = createToolServer(served, principalFromRequest, 'legacy');
    server2025.onerror = (error) => app.logger.warn({ err: error }, 'MCP server could not handle a message');
    await server2025.connect(transport);
    const endpoint2026 = new Endpoint2026(served, (error) =>
      app.logger.debug({ err: error }, 'MCP request refused or failed on the 2026-07-28 leg'),
    );
    const scopes = new Set(app.registry.all().flatMap((t) => t.definition.scopes));
    const families = options.routes ?? [];
    for (const family of families) for (const scope of family.scopes) scopes.add(scope);
    const metadata = resourceMetadataDocument({
      resource,
      authorizationServers: options.keys.kind === 'jwks' ? [options.keys.issuer] : [],
      scopesSupported: [...scopes].sort(),
    });

    const refusedHost = (req: IncomingMessage, res: ServerResponse): boolean => {
      const refusal = guard.check(req);
      if (refusal) sendJsonRpcError(res, 403, -32000, `Forbidden: ${refusal}`);
      return refusal !== null;
    };
    const routes = new HttpRouter<GatewayRoute>()
      .on('POST', MCP_PATH, {
        serve: (req, res) =>
          refusedHost(req, res)
            ? undefined
            : serveMcpPost(req, res, {
                transport,
                authenticator,
                bodyLimitBytes,
                replyLimitBytes,
                jsonBounds,
                meter,
                servesTool,
                paramHeadersOf,
                direct,
                endpoint2026,
              }),
      })
      .on(ANY_METHOD, MCP_PATH, {
        serve: (req, res) =>
          refusedHost(req, res)
            ? undefined
            : sendJsonRpcError(res, 405, -32000, 'Method Not Allowed: this server is stateless; POST only', {
                allow: 'POST',
              }),
      });
    for (const path of [RESOURCE_METADATA_PATH, '/.well-known/oauth-protected-resource']) {
      routes.on('GET', path, {
        serve: (_req, res) => sendJson(res, 200, metadata, { 'cache-control': 'max-age=300' }),
      });
    }
    routes
      .on('GET', '/healthz', { serve: (_req, res) => serveHealth(res) })
      .on('GET', '/readyz', { serve: (_req, res) => serveReadiness(res, app) })
      .on('GET', '/metrics', { serve: (_req, res) => serveMetrics(res, app) });
    for (const family of families) {
      routes.on(ANY_METHOD, `${family.prefix}*`, {
        family: family.prefix,
        serve: async (req, res, rawUrl) => {
          if (refusedHost(req, res)) return;
          const auth = await authenticator.authenticate(req);
          if (!auth.ok) return authenticator.refuse(res, auth);
          // Every call of an authenticated route counts against its caller's rate, before it is routed.
          if (!meter.admit(res, auth.principal, ROUTE_REQUEST_WEIGHT, 'json')) return;
          const url = new URL(rawUrl, 'http://localhost');
          return family.handle({ req, res, url, principal: auth.principal, resource });
        },
      });
    }
    for (const open of options.publicRoutes ?? []) {
      const route: GatewayRoute = {
        family: open.prefix,
        serve: (req, res, rawUrl) =>
          refusedHost(req, res)
            ? undefined
            : open.handle({ req, res, url: new URL(rawUrl, 'http://localhost') }),
      };
      routes.on(ANY_METHOD, open.prefix, route).on(ANY_METHOD, `${open.prefix}/*`, route);
    }

    route = async (req, res) => {
      const rawUrl = req.url ?? '/';
      const query = rawUrl.indexOf('?');
      const path = query === -1 ? rawUrl : rawUrl.slice(0, query);
      const found = routes.match(req.method ?? 'GET', path);
      res.once('finish', () =>
        app.metrics.httpRequests.inc({
          route: httpRouteLabel(path, found?.handler.family),
          status: String(res.statusCode),
        }),
      );
      if (!found) return sendJson(res, 404, { error: 'not_found' });
      return found.handler.serve(req, res, rawUrl);
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
        await server2025.close();
        await endpoint2026.close();
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
