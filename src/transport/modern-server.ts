import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  Server,
} from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';
import type { OperationTasks } from '../tasks/operation-tasks.ts';
import {
  acceptsTasks,
  callToolServerDirected,
  serveTaskExtension,
  TASKS_EXTENSION,
} from '../tasks/task-extension.ts';
import { LISTING_TTL_MS, SERVER_INFO, withoutTaskSupport } from './modern-results.ts';
import { pageOfTools } from './serialized-listings.ts';
import { INSTRUCTIONS } from './server-instructions.ts';

export interface ModernServerOptions {
  readonly gateway: Gateway;
  readonly toolsPageSize: number;
  /** Durable operations as tasks of the `io.modelcontextprotocol/tasks` extension. */
  readonly tasks?: OperationTasks;
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
  const { tasks } = options;
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
    const kind = options.gateway.registry.get(params.name)?.definition.kind;
    if (tasks && principal && kind !== undefined && kind !== 'read' && acceptsTasks(ctx)) {
      return (await callToolServerDirected(options.gateway, tasks, call, principal)) as CallToolResult;
    }
    return (await options.gateway.callTool(call, principal, ctx.mcpReq.signal)) as CallToolResult;
  });
  if (tasks) serveTaskExtension(server, tasks, principalNow);
  return server;
}

function headerValue(value: string | null | undefined): string | undefined {
  return value ?? undefined;
}
