import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolRequest,
  ErrorCode,
  InitializeRequestSchema,
  type InitializeResult,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  type ListToolsResult,
  type MessageExtraInfo,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { Principal } from '../auth/principal.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { ProtocolError } from '../gateway/protocol-layer.ts';
import type { OperationTasks } from '../tasks/operation-tasks.ts';
import { callToolAsTask } from '../tasks/task-call.ts';
import { serveTasks, TASKS_CAPABILITY, TASKS_SINCE_PROTOCOL } from '../tasks/task-handlers.ts';
import { principalFromAuthInfo } from './principal-auth-info.ts';
import { DEFAULT_TOOLS_PAGE_SIZE, pageOfTools } from './serialized-listings.ts';
import { INSTRUCTIONS } from './server-instructions.ts';

/**
 * How a transport tells the server who is calling, per request: HTTP from the request's verified token,
 * stdio by re-checking the session's token (which may expire while the session lasts).
 */
export type PrincipalSource = (
  extra: Pick<MessageExtraInfo, 'authInfo'>,
) => Principal | null | Promise<Principal | null>;

/** HTTP: the principal the transport verified for this request. */
export const principalFromRequest: PrincipalSource = (extra) => principalFromAuthInfo(extra.authInfo);

/**
 * Only the method is checked when the request is routed: the SDK server then validates tools/call
 * params itself and answers malformed ones with -32602. Routing with the full CallToolRequestSchema
 * would turn the same problem into a -32603 internal error, and parse every call twice.
 */
const toolsCallEnvelopeSchema = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/**
 * The MCP server over the gateway. One instance serves every request of a transport: tools/list
 * answers the registry's prebuilt listing and tools/call runs the gateway pipeline, so the
 * gateway (not the SDK) owns validation and the envelope. With `tasks`, write and request calls may
 * also be made as MCP tasks backed by their durable operations.
 */
export function createMcpServer(
  gateway: Gateway,
  principalOf: PrincipalSource,
  tasks?: OperationTasks,
  toolsPageSize = DEFAULT_TOOLS_PAGE_SIZE,
  /** One connection per server (stdio): its calls are the client's that sent `initialize`. */
  oneClient = false,
): Server {
  const serverInfo = { name: 'toolgate', version: packageJson.version };
  const toolsOnly = { tools: { listChanged: false } };
  const server = new Server(serverInfo, {
    capabilities: { ...toolsOnly, ...(tasks ? { tasks: TASKS_CAPABILITY } : {}) },
    instructions: INSTRUCTIONS,
  });
  let initializedBy: string | undefined;
  if (tasks) {
    serveTasks(server, tasks, principalOf);
    // Tasks are announced only to clients of a revision that defines them; older ones see what they saw.
    server.setRequestHandler(InitializeRequestSchema, (request): InitializeResult => {
      // This handler replaces the SDK's, which would have kept the client's info.
      initializedBy = request.params.clientInfo.name;
      const asked = request.params.protocolVersion;
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      return {
        protocolVersion,
        capabilities:
          protocolVersion >= TASKS_SINCE_PROTOCOL ? { ...toolsOnly, tasks: TASKS_CAPABILITY } : toolsOnly,
        serverInfo,
        instructions: INSTRUCTIONS,
      };
    });
  }
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const page = pageOfTools(
      gateway.listTools(await principalOf(extra)),
      request.params?.cursor,
      toolsPageSize,
    );
    if (!page.ok) throw new ProtocolError(ErrorCode.InvalidParams, `Invalid params: ${page.reason}`);
    return page.page as ListToolsResult;
  });
  server.setRequestHandler(toolsCallEnvelopeSchema, async (request, extra) => {
    // The SDK server validated params against CallToolRequestSchema before calling this handler.
    const params = request.params as CallToolRequest['params'];
    const call = {
      name: params.name,
      arguments: params.arguments,
      _meta: params._meta,
      traceparent: headerValue(extra.requestInfo?.headers.traceparent),
      ...(oneClient ? clientNameOf(initializedBy ?? server.getClientVersion()?.name) : {}),
    };
    if (tasks && params.task) {
      return callToolAsTask(gateway, tasks, call, await principalOf(extra));
    }
    return gateway.callTool(call, await principalOf(extra), extra.signal);
  });
  return server;
}

/** The name the connection's client gave in `initialize`, if it gave one. */
function clientNameOf(name: unknown): { clientName?: string } {
  return typeof name === 'string' ? { clientName: name } : {};
}

/** A single header value (a repeated header is ignored rather than guessed at). */
function headerValue(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
