import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type ListToolsResult,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import packageJson from '../../package.json' with { type: 'json' };
import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { principalFromAuthInfo } from './principal-auth-info.ts';

/** How a transport tells the server who is calling. */
export type PrincipalSource = (extra: Pick<MessageExtraInfo, 'authInfo'>) => Principal | null;

/** HTTP: the principal the transport verified for this request. */
export const principalFromRequest: PrincipalSource = (extra) => principalFromAuthInfo(extra.authInfo);

const INSTRUCTIONS =
  'Every tool answers with the same outcome envelope (status, code, message, resolution, result). ' +
  'Only completed/validated/submitted mean success; outcome_unknown means the change may have happened: ' +
  'poll operations_get or retry with the same idempotency_key, never a new one.';

/**
 * The MCP server over the gateway. One instance serves every request of a transport: tools/list
 * answers the registry's prebuilt listing and tools/call runs the gateway pipeline, so the
 * gateway (not the SDK) owns validation and the envelope.
 */
export function createMcpServer(gateway: Gateway, principalOf: PrincipalSource): Server {
  const server = new Server(
    { name: 'toolgate', version: packageJson.version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: gateway.listTools() as ListToolsResult['tools'],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    gateway.callTool(
      { name: request.params.name, arguments: request.params.arguments, _meta: request.params._meta },
      principalOf(extra),
      extra.signal,
    ),
  );
  return server;
}
