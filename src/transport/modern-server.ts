import {
  type CallToolResult,
  type ListToolsResult,
  ProtocolError,
  Server,
} from '@modelcontextprotocol/server';
import packageJson from '../../package.json' with { type: 'json' };
import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { pageOfTools } from './serialized-listings.ts';
import { INSTRUCTIONS } from './server-instructions.ts';

/** How long a client may reuse a tools/list page or a discovery answer: the listing is fixed per process. */
export const LISTING_TTL_MS = 300_000;

export interface ModernServerOptions {
  readonly gateway: Gateway;
  readonly toolsPageSize: number;
}

/**
 * The 2026-07-28 server over the gateway, one instance per request (the SDK's serving entry builds it
 * for the request and drops it after): `server/discover`, `tools/list` and `tools/call`, with the
 * principal the transport verified for this request. The SDK stamps `resultType`, the cache hints and
 * `serverInfo`; the gateway owns validation and the envelope, as on the 2025 path.
 */
export function createModernServer(options: ModernServerOptions, principal: Principal | null): Server {
  const server = new Server(
    { name: 'toolgate', version: packageJson.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      // A listing differs per principal (it holds only the tools their scopes allow): never shared.
      cacheHints: {
        'tools/list': { ttlMs: LISTING_TTL_MS, cacheScope: 'private' },
        'server/discover': { ttlMs: LISTING_TTL_MS, cacheScope: 'private' },
      },
    },
  );
  server.setRequestHandler('tools/list', (request) => {
    const page = pageOfTools(
      options.gateway.listTools(principal).map(withoutTaskSupport),
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
    return (await options.gateway.callTool(call, principal, ctx.mcpReq.signal)) as CallToolResult;
  });
  return server;
}

/** `execution.taskSupport` is 2025-11-25 vocabulary: on 2026-07-28 tasks are an extension. */
function withoutTaskSupport(tool: Record<string, unknown>): Record<string, unknown> {
  if (!('execution' in tool)) return tool;
  const { execution: _, ...rest } = tool;
  return rest;
}

function headerValue(value: string | null | undefined): string | undefined {
  return value ?? undefined;
}
