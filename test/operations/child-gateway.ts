import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OperationsTuning, OutcomeEnvelope } from 'toolgate';
import { loadOrCreateDevKeys, mintToken } from 'toolgate/server';
import type { TokenSubject } from 'toolgate/testing';

const CHILD_SCRIPT = fileURLToPath(new URL('./fixtures/gateway-child.ts', import.meta.url));

export interface ChildGatewayOptions {
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly tuning?: Partial<OperationsTuning>;
  readonly delayMs?: number;
  readonly timeoutMs?: number;
  readonly pauseAfterApply?: boolean;
  readonly statusQuery?: 'answer' | 'down' | 'no_query';
}

type ChildMessage = { type: string; [field: string]: unknown };

/** A gateway in its own process (fixtures/gateway-child.ts), driven over MCP HTTP and IPC. */
export class ChildGateway {
  readonly #clients = new Map<string, Promise<Client>>();
  readonly #inbox: ChildMessage[] = [];
  readonly #waiting: { type: string; resolve: (m: ChildMessage) => void }[] = [];

  private constructor(
    readonly process: ChildProcess,
    readonly dataDir: string,
  ) {
    process.on('message', (message: ChildMessage) => {
      const i = this.#waiting.findIndex((w) => w.type === message.type);
      if (i >= 0) this.#waiting.splice(i, 1)[0]!.resolve(message);
      else this.#inbox.push(message);
    });
  }

  url = '';
  resource = '';

  static async start(options: ChildGatewayOptions): Promise<ChildGateway> {
    // Create the signing key before any child, so that concurrent children never race to create it.
    await loadOrCreateDevKeys(options.dataDir);
    const child = fork(CHILD_SCRIPT, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        TOOLGATE_CHILD_DATA_DIR: options.dataDir,
        TOOLGATE_CHILD_DATABASE_URL: options.databaseUrl ?? '',
        TOOLGATE_CHILD_TUNING: JSON.stringify(options.tuning ?? {}),
        TOOLGATE_CHILD_DELAY_MS: String(options.delayMs ?? 0),
        TOOLGATE_CHILD_TIMEOUT_MS: String(options.timeoutMs ?? 5_000),
        TOOLGATE_CHILD_PAUSE_AFTER_APPLY: options.pauseAfterApply ? '1' : '',
        TOOLGATE_CHILD_STATUS_QUERY: options.statusQuery ?? 'answer',
      },
    });
    const gateway = new ChildGateway(child, options.dataDir);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`gateway child exited early (${code})`))),
    );
    exited.catch(() => undefined);
    const ready = await Promise.race([gateway.next('ready', 30_000), exited]);
    gateway.url = String(ready.url);
    gateway.resource = String(ready.resource);
    return gateway;
  }

  /** The next IPC message of a type (already received or still to come). */
  next(type: string, timeoutMs = 15_000): Promise<ChildMessage> {
    const i = this.#inbox.findIndex((m) => m.type === type);
    if (i >= 0) return Promise.resolve(this.#inbox.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${type} message within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#waiting.push({
        type,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  async tell(message: Record<string, unknown>): Promise<void> {
    this.process.send(message);
    await this.next('ack');
  }

  async callTool(who: TokenSubject, name: string, args: Record<string, unknown>): Promise<OutcomeEnvelope> {
    const client = await this.#client(who);
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 });
    return result.structuredContent as OutcomeEnvelope;
  }

  /** The SDK client this gateway serves `who` through (one per subject, closed with the gateway). */
  client(who: TokenSubject): Promise<Client> {
    return this.#client(who);
  }

  #client(who: TokenSubject): Promise<Client> {
    let client = this.#clients.get(who.sub);
    if (!client) {
      client = (async () => {
        const token = await mintToken(await loadOrCreateDevKeys(this.dataDir), who, {
          audience: this.resource,
        });
        const connected = new Client({ name: 'toolgate-ops-test', version: '0.0.0' });
        await connected.connect(
          new StreamableHTTPClientTransport(new URL(this.url), {
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        );
        return connected;
      })();
      this.#clients.set(who.sub, client);
    }
    return client;
  }

  /** Ends the process at once, as a crash would: no settle, no cleanup. */
  async kill(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = new Promise((resolve) => this.process.once('exit', resolve));
      this.process.kill('SIGKILL');
      await exited;
    }
    await this.#closeClients();
  }

  /** Lets the child close its server and store, then waits for it to exit. */
  async stop(): Promise<void> {
    await this.#closeClients();
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.disconnect();
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  async #closeClients(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.allSettled(clients.map(async (c) => (await c).close()));
  }
}
