import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Logger, pino } from 'pino';
import { type App, type AppConfig, createApp } from '../app/create-app.ts';
import type { ToolgateModule } from '../app/module.ts';
import { loadOrCreateDevKeys } from '../auth/dev-keys.ts';
import { type MintOptions, mintToken } from '../auth/mint-token.ts';
import type { TokenSubject } from '../auth/token-claims.ts';
import type { NamedPrincipal, ToolgateExtension } from '../config/toolgate-extension.ts';
import { consoleRoutes } from '../console/console-routes.ts';
import type { AnyToolDefinition } from '../contract/define-tool.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { ServeHooks } from '../extensions/serve-hooks.ts';
import type { OperationRecord } from '../operations/operation-record.ts';
import { operatorRoutes } from '../operator/operator-routes.ts';
import { ShiftableClock } from '../time/clock.ts';
import { type HttpTransportOptions, startHttpTransport } from '../transport/http-server.ts';
import { REVISION_2026 } from '../transport/results-2026.ts';

/** A principal by its name (the `principals` option's, or an extension's), or explicit claims. */
export type PrincipalRef = string | TokenSubject;

/** The MCP revisions the gateway serves, which a test client speaks. */
export type ProtocolRevision = '2025-11-25' | '2026-07-28';

export interface TestClientOptions {
  /**
   * The revision the client speaks: `2025-11-25` (the default) opens with the `initialize` handshake;
   * `2026-07-28` is pinned to that revision, with the per-request envelope and no handshake.
   */
  readonly revision?: ProtocolRevision;
}

export interface TestGatewayOptions {
  /** Modules to serve. */
  readonly modules?: readonly ToolgateModule[];
  /** Tools to serve as one more module. */
  readonly tools?: readonly AnyToolDefinition[];
  /** Principals `tokenFor`, `client` and `callTool` know by name, besides the extensions'. */
  readonly principals?: readonly NamedPrincipal[];
  /**
   * Extensions around the app, as a config's `extensions` are around `serve`: the simulation kit's
   * (`simulationExtension`) seeds the simulated modules, names their demo principals and has the test API.
   */
  readonly extensions?: readonly ToolgateExtension[];
  /** postgres://... of a database the test created; SQLite in a temp dir otherwise. */
  readonly databaseUrl?: string;
  /** Mount the test API of the extensions (the simulation kit's /test-api/*); one must provide it. */
  readonly testApi?: boolean;
  /** Let the extensions seed their world (the simulated modules' demo data; default true). */
  readonly seed?: boolean;
  /** The app's settings; its clock is a ShiftableClock (tests shift it) unless one is given. */
  readonly app?: Partial<
    Pick<
      AppConfig,
      | 'retentionSeconds'
      | 'backgroundJobs'
      | 'clock'
      | 'operations'
      | 'tracing'
      | 'tasksPageSize'
      | 'operatorConfirmationTtlSeconds'
      | 'limits'
      | 'policyDir'
    >
  >;
  /** Where logs go; silent unless TOOLGATE_TEST_LOG_LEVEL is set. */
  readonly logger?: Logger;
  readonly http?: Partial<
    Pick<
      HttpTransportOptions,
      'localPrincipalToken' | 'bodyLimitBytes' | 'allowedHosts' | 'toolsPageSize' | 'confirmationTtlSeconds'
    >
  >;
}

export interface TestGateway {
  /** The MCP endpoint. */
  readonly url: string;
  /** The server origin, for /healthz, /test-api/... */
  readonly origin: string;
  readonly app: App;
  readonly dataDir: string;
  /** A dev token this gateway accepts; `options` can make it expired, not yet valid, or for another audience. */
  tokenFor(principal: PrincipalRef, options?: Partial<MintOptions>): Promise<string>;
  /**
   * A connected MCP client (the official v2 client) sending the principal's bearer token, speaking the
   * revision asked for (2025-11-25 unless told); closed with the gateway.
   */
  client(principal: PrincipalRef, options?: TestClientOptions): Promise<Client>;
  /** One tools/call over MCP as the principal, answering the outcome envelope (structuredContent). */
  callTool(principal: PrincipalRef, name: string, args?: Record<string, unknown>): Promise<OutcomeEnvelope>;
  /** The stored operation record (status, outcome, attempts), straight from the store. */
  operation(operationId: string): Promise<OperationRecord | null>;
  /** An HTTP request to the test API as a `test:control` principal. */
  testApi(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

/** The principal the test API helper acts as. */
export const TEST_CONTROLLER: TokenSubject = {
  sub: 'test-controller',
  tenant: 'test',
  actor: 'operator',
  scopes: ['test:control'],
};

/**
 * Starts a complete gateway in this process, as `toolgate serve` would: a real store (SQLite in a temp
 * dir, or the PostgreSQL database given), MCP over real HTTP on a free loopback port, dev tokens.
 * Everything is removed by close().
 */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-test-'));
  const modules = [...(options.modules ?? [])];
  if (options.tools) modules.push(toolsModule(options.tools));
  const hooks = new ServeHooks(options.extensions);
  if (options.testApi && !hooks.offersTestApi) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(
      "startTestGateway's test API needs an extension that provides one (the simulation kit's simulationExtension)",
    );
  }
  const app = await createApp({
    dataDir,
    databaseUrl: options.databaseUrl,
    logger: options.logger ?? pino({ level: process.env.TOOLGATE_TEST_LOG_LEVEL ?? 'silent' }),
    clock: new ShiftableClock(),
    modules,
    ...options.app,
  }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  if (options.seed ?? true)
    await hooks.seed(app).catch(async (error: unknown) => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    });
  const keys = { kind: 'dev', dataDir } as const;
  const http = await startHttpTransport(app, {
    port: 0,
    keys,
    routes: [operatorRoutes(app), ...(options.testApi ? hooks.testApiRoutes(app, { keys }) : [])],
    publicRoutes: [consoleRoutes()],
    ...options.http,
  }).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  const devKeys = await loadOrCreateDevKeys(dataDir);
  const clients: Client[] = [];
  const byPrincipal = new Map<string, Promise<Client>>();

  const named = [...(options.principals ?? []), ...hooks.principals(app)];
  const subjectOf = (principal: PrincipalRef): TokenSubject => {
    if (typeof principal !== 'string') return principal;
    const found = named.find((p) => p.name === principal);
    if (!found) throw new Error(`no principal named ${principal}; known: ${named.map((p) => p.name)}`);
    return found.subject;
  };
  const tokenFor = (principal: PrincipalRef, mint: Partial<MintOptions> = {}) =>
    mintToken(devKeys, subjectOf(principal), { audience: http.resource, ...mint });
  const client = async (principal: PrincipalRef, asked: TestClientOptions = {}) => {
    const token = await tokenFor(principal);
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const connected = new Client(
      { name: 'toolgate-test', version: '0.0.0' },
      asked.revision === REVISION_2026 ? { versionNegotiation: { mode: { pin: REVISION_2026 } } } : {},
    );
    await connected.connect(transport);
    clients.push(connected);
    return connected;
  };
  const origin = new URL(http.url).origin;

  return {
    url: http.url,
    origin,
    app,
    dataDir,
    tokenFor,
    client,
    async callTool(principal, name, args = {}) {
      const key = typeof principal === 'string' ? principal : JSON.stringify(principal);
      let pending = byPrincipal.get(key);
      if (!pending) {
        pending = client(principal);
        byPrincipal.set(key, pending);
      }
      const result = await (await pending).callTool({ name, arguments: args });
      if (!result.structuredContent) throw new Error(`${name} answered without structuredContent`);
      return result.structuredContent as OutcomeEnvelope;
    },
    operation: (operationId) => app.operations.store.findById(operationId),
    async testApi(method, path, body) {
      const token = await tokenFor(TEST_CONTROLLER);
      const response = await fetch(new URL(path, origin), {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    async close() {
      try {
        await Promise.allSettled(clients.map((c) => c.close()));
        await http.close();
        await app.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Serves tools as a module with no tables. */
export function toolsModule(tools: readonly AnyToolDefinition[]): ToolgateModule {
  return { name: 'tools', create: () => ({ tools }) };
}
