import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  Server,
} from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import { servedVersion } from '../contract/tool-versions.ts';
import type { Gateway } from '../gateway/gateway.ts';
import type { OperationTasks } from '../tasks/operation-tasks.ts';
import {
  acceptsTasks,
  callToolServerDirected,
  serveTaskExtension,
  TASKS_EXTENSION,
} from '../tasks/task-extension.ts';
import type { ConfirmationElicitation } from './confirmation-elicitation.ts';
import { LISTING_TTL_MS, SERVER_INFO, withoutTaskSupport } from './results-2026.ts';
import { pageOfTools } from './serialized-listings.ts';
import { INSTRUCTIONS } from './server-instructions.ts';

export interface ModernServerOptions {
  readonly gateway: Gateway;
  readonly toolsPageSize: number;
  /** Durable operations as tasks of the `io.modelcontextprotocol/tasks` extension. */
  readonly tasks?: OperationTasks;
  /**
   * Confirmations asked through the client (form-mode elicitation, integrity-protected state); absent:
   * no client is asked, and tools that need a person's confirmation answer with their fallback.
   */
  readonly confirmations?: ConfirmationElicitation;
}

/**
 * The 2026-07-28 server over the gateway, one instance per request (the SDK's serving entry builds it
 * for the request and drops it after; over stdio, one per connection): `server/discover`, `tools/list`
 * and `tools/call`, with the principal the transport verified (over stdio, re-verified per request).
 * The SDK stamps `resultType`, the cache hints and `serverInfo`; the gateway owns validation and the
 * envelope, as on the 2025 path. With `tasks`, a
 * write or request call of a client that declares the Tasks extension may be answered as a task.
 */
export function createModernServer(
  options: ModernServerOptions,
  principalNow: () => Principal | null | Promise<Principal | null>,
): Server {
  const { tasks, confirmations } = options;
  const server = new Server(
    { ...SERVER_INFO },
    {
      capabilities: {
        tools: { listChanged: false },
        ...(tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      },
      instructions: INSTRUCTIONS,
      // A listing differs per principal (it holds only the tools their scopes allow): never shared.
      cacheHints: {
        'tools/list': { ttlMs: LISTING_TTL_MS, cacheScope: 'private' },
        'server/discover': { ttlMs: LISTING_TTL_MS, cacheScope: 'private' },
      },
      // Echoed confirmation state is verified before any handler runs; what fails is the SDK's -32602.
      ...(confirmations ? { requestState: { verify: confirmations.verify } } : {}),
    },
  );
  server.setRequestHandler('tools/list', async (request) => {
    const page = pageOfTools(
      options.gateway.listTools(await principalNow()).map(withoutTaskSupport),
      request.params?.cursor,
      options.toolsPageSize,
    );
    if (!page.ok) throw new ProtocolError(-32602, `Invalid params: ${page.reason}`);
    return page.page as ListToolsResult;
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const params = request.params;
    const call = {
      name: params.name,
      arguments: params.arguments,
      _meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
      traceparent: headerValue(ctx.http?.req?.headers.get('traceparent')),
    };
    const principal = await principalNow();
    const definition = servedVersion(options.gateway.registry, params.name, principal)?.definition;
    const kind = definition?.kind;
    // A tool that may need a person's confirmation learns whether this client can ask them.
    const consent = confirmations && definition?.confirm ? confirmations.channelOf(ctx) : undefined;
    const consenting = consent ? { ...call, consent } : call;
    if (tasks && principal && kind !== undefined && kind !== 'read' && acceptsTasks(ctx)) {
      return (await callToolServerDirected(options.gateway, tasks, consenting, principal, (question) =>
        confirmations!.ask(question, ctx),
      )) as CallToolResult;
    }
    if (!consent) {
      return (await options.gateway.callTool(call, principal, ctx.mcpReq.signal)) as CallToolResult;
    }
    const answered = await options.gateway.callToolOrAsk(consenting, principal, ctx.mcpReq.signal);
    if (answered.kind === 'ask') return (await confirmations!.ask(answered.question, ctx)) as never;
    return answered.result as CallToolResult;
  });
  if (tasks) serveTaskExtension(server, tasks, principalNow);
  return server;
}

function headerValue(value: string | null | undefined): string | undefined {
  return value ?? undefined;
}
