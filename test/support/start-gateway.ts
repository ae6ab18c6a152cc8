import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Logger, pino } from 'pino';
import { type App, type AppConfig, createApp } from '../../src/app/create-app.ts';
import type { DemoPrincipal, DomainModule } from '../../src/app/domain-module.ts';
import { loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';
import { type MintOptions, mintToken } from '../../src/auth/mint-token.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import type { AnyToolDefinition } from '../../src/contract/define-tool.ts';
import type { OutcomeEnvelope } from '../../src/contract/envelope.ts';
import { referenceDomains } from '../../src/domains/reference-domains.ts';
import { type HttpTransportOptions, startHttpTransport } from '../../src/transport/http-server.ts';

/** A principal by its demo name (see app.principals), or explicit claims. */
export type PrincipalRef = string | TokenSubject;

export interface StartGatewayOptions {
  /** Domains to serve; the reference domains when omitted. */
  readonly domains?: readonly DomainModule[];
  /** Test-only tools (and demo principals), served as one extra domain. */
  readonly tools?: readonly AnyToolDefinition[];
  readonly principals?: readonly DemoPrincipal[];
  /** postgres://... of a database the test created; SQLite in a temp dir otherwise. */
  readonly databaseUrl?: string;
  readonly testApi?: boolean;
  /** Seed the demo world (default true). */
  readonly seed?: boolean;
  readonly app?: Partial<Pick<AppConfig, 'retentionSeconds' | 'backgroundJobs' | 'clock'>>;
  /** Where logs go; silent unless TOOLGATE_TEST_LOG_LEVEL is set. */
  readonly logger?: Logger;
  readonly http?: Partial<
    Pick<HttpTransportOptions, 'localPrincipalToken' | 'bodyLimitBytes' | 'allowedHosts'>
  >;
}

export interface StartedGateway {
  /** The MCP endpoint. */
  readonly url: string;
  /** The server origin, for /healthz, /test-api/... */
  readonly origin: string;
  readonly app: App;
  readonly dataDir: string;
  /** A dev token this gateway accepts; `options` can make it expired, not yet valid, or for another audience. */
  tokenFor(principal: PrincipalRef, options?: Partial<MintOptions>): Promise<string>;
  /** A connected SDK client sending the principal's bearer token; closed with the gateway. */
  client(principal: PrincipalRef): Promise<Client>;
  /** One tools/call as the principal, answering the outcome envelope (structuredContent). */
  callTool(principal: PrincipalRef, name: string, args?: Record<string, unknown>): Promise<OutcomeEnvelope>;
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

function testLogger(): Logger {
  return pino({ level: process.env.TOOLGATE_TEST_LOG_LEVEL ?? 'silent' });
}

/**
 * Starts a complete gateway in this process, as `toolgate serve` would, on a free loopback port
 * with a temp data dir (SQLite and the dev signing key). Everything is removed by close().
 */
export async function startGateway(options: StartGatewayOptions = {}): Promise<StartedGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-test-'));
  const domains = [...(options.domains ?? referenceDomains)];
  if (options.tools || options.principals)
    domains.push(testToolsDomain(options.tools ?? [], options.principals ?? []));
  const app = await createApp({
    dataDir,
    databaseUrl: options.databaseUrl,
    logger: options.logger ?? testLogger(),
    seed: options.seed ?? true,
    domains,
    ...options.app,
  });
  const http = await startHttpTransport(app, {
    port: 0,
    keys: { kind: 'dev', dataDir },
    enableTestApi: options.testApi ?? false,
    ...options.http,
  }).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  const keys = await loadOrCreateDevKeys(dataDir);
  const clients: Client[] = [];
  const byPrincipal = new Map<string, Promise<Client>>();

  const subjectOf = (principal: PrincipalRef): TokenSubject => {
    if (typeof principal !== 'string') return principal;
    const demo = app.principals.find((p) => p.name === principal);
    if (!demo)
      throw new Error(`no demo principal named ${principal}; known: ${app.principals.map((p) => p.name)}`);
    return { sub: demo.subject, tenant: demo.tenant, actor: demo.actor, scopes: demo.scopes };
  };
  const tokenFor = (principal: PrincipalRef, mint: Partial<MintOptions> = {}) =>
    mintToken(keys, subjectOf(principal), { audience: http.resource, ...mint });
  const client = async (principal: PrincipalRef) => {
    const token = await tokenFor(principal);
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const connected = new Client({ name: 'toolgate-test', version: '0.0.0' });
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

/** Serves test-only tools as a domain with no tables and no world of its own. */
export function testToolsDomain(
  tools: readonly AnyToolDefinition[],
  principals: readonly DemoPrincipal[] = [],
): DomainModule {
  return {
    name: 'test-tools',
    migrations: [],
    create: () => ({
      tools,
      principals,
      async seed() {},
      async reset() {},
      async fixtures() {
        return {};
      },
    }),
  };
}
