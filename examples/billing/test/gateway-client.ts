import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The outcome envelope fields these tests read (toolgate DESIGN.md section 3). */
export interface Envelope {
  readonly ok: boolean;
  readonly status: string;
  readonly code: string | null;
  readonly operation_id: string | null;
  readonly replayed: boolean;
  readonly retryable: boolean;
  readonly message: string;
  readonly result: Record<string, unknown> | null;
}

/** What `operations_get` answers about one operation. */
export interface OperationView {
  readonly status: string;
  readonly outcome: Envelope | null;
  readonly delivery_attempts: number;
  readonly reconcile_attempts: number;
  readonly reconcile_note: string | null;
}

/** An MCP client (the official SDK, Streamable HTTP) acting as one principal. */
export class GatewayClient {
  readonly client: Client;

  private constructor(client: Client) {
    this.client = client;
  }

  static async connect(mcpUrl: string, token: string): Promise<GatewayClient> {
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'billing-example-test', version: '1.0.0' });
    await client.connect(transport);
    return new GatewayClient(client);
  }

  /** Calls a tool and returns its envelope (structuredContent). */
  async call(name: string, args: Record<string, unknown>): Promise<Envelope> {
    const answer = await this.client.callTool({ name, arguments: args });
    return answer.structuredContent as unknown as Envelope;
  }

  async operation(operationId: string): Promise<OperationView> {
    const envelope = await this.call('operations_get', { operation_id: operationId });
    if (envelope.status !== 'completed')
      throw new Error(`operations_get: ${envelope.code} ${envelope.message}`);
    return envelope.result as unknown as OperationView;
  }

  /** Polls `operations_get` until the operation leaves outcome_unknown/in_progress, or the deadline. */
  async settled(operationId: string, timeoutMs = 15_000): Promise<OperationView> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const view = await this.operation(operationId);
      if (view.status !== 'outcome_unknown' && view.status !== 'in_progress') return view;
      if (Date.now() > deadline) {
        throw new Error(`operation ${operationId} still ${view.status} (${view.reconcile_note})`);
      }
      await sleep(100);
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
