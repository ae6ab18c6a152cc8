import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintToken, type Started, startBillingService, startGateway } from './child-processes.ts';
import { FaultProxy } from './fault-proxy.ts';
import { GatewayClient } from './gateway-client.ts';
import { ServiceData } from './service-data.ts';

const EXAMPLE_DIR = join(import.meta.dirname, '..');
const DB_FILE = 'billing.sqlite';
const SCOPES = ['billing:read', 'billing:write', 'billing:refund', 'operations:read'];

/** The framework package of this repository, relative to the example's node_modules. */
const REPOSITORY_PACKAGE = '../../../packages/toolgate';

/**
 * Makes `import … from 'toolgate'` in the example resolve to this repository's framework package, as
 * `npm i ../../packages/toolgate` would in a copy of the example (there the evaluation harness and the
 * simulation kit are installed beside it; here the repository's workspaces provide them).
 */
export function linkToolgatePackage(): void {
  const link = join(EXAMPLE_DIR, 'node_modules/toolgate');
  try {
    if (!lstatSync(link).isSymbolicLink() || readlinkSync(link) === REPOSITORY_PACKAGE) return;
    // A link from before the packages were split (to the repository root) is replaced.
    rmSync(link);
  } catch {
    mkdirSync(join(EXAMPLE_DIR, 'node_modules'), { recursive: true });
  }
  symlinkSync(REPOSITORY_PACKAGE, link, 'dir');
}

interface StackParts {
  readonly dir: string;
  readonly proxy: FaultProxy;
  readonly service: Started;
  readonly gateway: Started;
  readonly client: GatewayClient;
  readonly data: ServiceData;
}

/**
 * The three processes of the example, wired gateway → fault proxy → service, plus a client acting as
 * the seeded customer and a read-only view of the service's own SQLite file.
 */
export class BillingStack {
  readonly dir: string;
  readonly proxy: FaultProxy;
  /** Replaced when the service is restarted. */
  service: Started;
  readonly gateway: Started;
  readonly client: GatewayClient;
  readonly data: ServiceData;

  private constructor(parts: StackParts) {
    this.dir = parts.dir;
    this.proxy = parts.proxy;
    this.service = parts.service;
    this.gateway = parts.gateway;
    this.client = parts.client;
    this.data = parts.data;
  }

  static async start(): Promise<BillingStack> {
    linkToolgatePackage();
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-billing-'));
    const started: { stop(): Promise<void> }[] = [];
    try {
      const dbFile = join(dir, DB_FILE);
      const service = await startBillingService({ dbFile });
      started.push(service);
      const proxy = await FaultProxy.start(portOf(service.url));
      started.push({ stop: () => proxy.close() });
      const dataDir = join(dir, 'gateway');
      const gateway = await startGateway(dataDir, proxy.url);
      started.push(gateway);
      const client = await GatewayClient.connect(gateway.url, await mintToken(dataDir, gateway.url, SCOPES));
      const data = new ServiceData(dbFile);
      return new BillingStack({ dir, proxy, service, gateway, client, data });
    } catch (error) {
      for (const child of started.reverse()) await child.stop();
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  get dbFile(): string {
    return join(this.dir, DB_FILE);
  }

  /** Replaces the service process (same SQLite file) and points the proxy at the new one. */
  async restartService(options: { pauseAfterCommitMs?: number } = {}): Promise<void> {
    await this.service.stop();
    await this.startService(options);
  }

  /** Starts the service again after it was stopped or killed. */
  async startService(options: { pauseAfterCommitMs?: number } = {}): Promise<void> {
    this.service = await startBillingService({ dbFile: this.dbFile, ...options });
    this.proxy.retarget(portOf(this.service.url));
  }

  /**
   * A request straight to the service, bypassing gateway and proxy, as the seeded customer: a world
   * action (the finance team's decision) or a late copy of a request the gateway sent.
   */
  async serviceRequest(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const url = new URL(path, this.service.url);
    url.searchParams.set('tenant', 'acme');
    url.searchParams.set('customer', 'cus_acme_alice');
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  async stop(): Promise<void> {
    await this.client.close().catch(() => undefined);
    await this.gateway.stop();
    await this.proxy.close();
    await this.service.stop();
    this.data.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}
