import {
  type CallToolResult,
  type JSONRPCRequest,
  type ListToolsResult,
  type McpRequestContext,
  ProtocolError,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import { servedVersion } from '../contract/tool-versions.ts';
import type { CallAnswer, Gateway } from '../gateway/gateway.ts';
import type { OperationTasks } from '../tasks/operation-tasks.ts';
import { callToolAsTask } from '../tasks/task-call.ts';
import type { ConfirmationElicitation } from './confirmation-elicitation.ts';
import { principalFromAuthInfo } from './principal-auth-info.ts';
import { LISTING_TTL_MS, SERVER_INFO, withoutTaskSupport } from './results-2026.ts';
import { pageOfTools } from './serialized-listings.ts';
import { INSTRUCTIONS } from './server-instructions.ts';
import {
  acceptsTasks,
  callToolServerDirected,
  serveTaskExtension,
  TASKS_EXTENSION,
} from './task-extension.ts';
import { serveTasks, TASKS_CAPABILITY, TASKS_SINCE_PROTOCOL } from './task-handlers.ts';
import { answerText, toolResult } from './tool-results.ts';

/** Which revision family an instance serves: the SDK binds each instance to one for its lifetime. */
export type Era = McpRequestContext['era'];

export interface ToolServerOptions {
  readonly gateway: Gateway;
  readonly toolsPageSize: number;
  /**
   * Durable operations as tasks: on 2025-11-25 the protocol's own tasks (task-augmented tools/call,
   * tasks/get, tasks/result, tasks/list, tasks/cancel), on 2026-07-28 the `io.modelcontextprotocol/tasks`
   * extension.
   */
  readonly tasks?: OperationTasks;
  /**
   * Confirmations asked through a 2026-07-28 client (form-mode elicitation, integrity-protected state);
   * absent: no client is asked, and tools that need a person's confirmation answer with their fallback.
   */
  readonly confirmations?: ConfirmationElicitation;
}

/**
 * Who is calling, per request: over HTTP the principal the transport verified for this request, over
 * stdio the session's token checked again (it may expire while the session lasts).
 */
export type PrincipalOf = (ctx: ServerContext) => Principal | null | Promise<Principal | null>;

/** HTTP: the principal the transport verified for this request. */
export const principalFromRequest: PrincipalOf = (ctx) => principalFromAuthInfo(ctx.http?.authInfo);

/**
 * The MCP server over the gateway, for both revisions: one definition of tools/list and tools/call,
 * built per 2026-07-28 request by the SDK's serving entry, once per stdio connection, and once for all
 * 2025-11-25 HTTP traffic (which the multiplexed transport hands it). tools/list answers the registry's
 * listing for the caller and tools/call runs the gateway pipeline, so the gateway (not the SDK) owns
 * validation and the envelope. What differs by era is only the vocabulary the revision defines: task
 * support in the listing, tasks as protocol methods or as the extension, and confirmations asked through
 * the client, which only 2026-07-28 carries.
 *
 * `oneClient` (stdio): the connection's calls are all those of the client that sent `initialize`.
 */
export function createToolServer(
  options: ToolServerOptions,
  principalOf: PrincipalOf,
  era: Era,
  oneClient = false,
): Server {
  const { gateway, tasks } = options;
  /** A call's envelope as its `CallToolResult`, serialized once and its size counted. */
  const answered = (answer: CallAnswer): CallToolResult =>
    toolResult(answer.envelope, answerText(answer.envelope, gateway.metrics));
  const confirmations = era === 'modern' ? options.confirmations : undefined;
  const server = new ToolServer(era, {
    capabilities: {
      tools: { listChanged: false },
      ...(tasks && era === 'legacy' ? { tasks: TASKS_CAPABILITY } : {}),
      ...(tasks && era === 'modern' ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    },
    instructions: INSTRUCTIONS,
    // A listing differs per principal (it holds only the tools their scopes allow): never shared.
    // The SDK stamps these on 2026-07-28 results only.
    cacheHints: {
      'tools/list': { ttlMs: LISTING_TTL_MS, cacheScope: 'private' },
      'server/discover': { ttlMs: LISTING_TTL_MS, cacheScope: 'private' },
    },
    // Echoed confirmation state is verified before any handler runs; what fails is the SDK's -32602.
    ...(confirmations ? { requestState: { verify: confirmations.verify } } : {}),
  });
  server.setRequestHandler('tools/list', async (request, ctx) => {
    const listed = gateway.listTools(await principalOf(ctx));
    const page = pageOfTools(
      era === 'modern' ? listed.map(withoutTaskSupport) : listed,
      request.params?.cursor,
      options.toolsPageSize,
    );
    if (!page.ok) throw new ProtocolError(-32602, `Invalid params: ${page.reason}`);
    return page.page as ListToolsResult;
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const params = request.params;
    const clientName = oneClient && era === 'legacy' ? server.getClientVersion()?.name : undefined;
    const call = {
      name: params.name,
      arguments: params.arguments,
      _meta: ctx.mcpReq._meta as Record<string, unknown> | undefined,
      traceparent: ctx.http?.req?.headers.get('traceparent') ?? undefined,
      ...(typeof clientName === 'string' ? { clientName } : {}),
    };
    const principal = await principalOf(ctx);
    if (era === 'legacy') {
      if (tasks && isTaskAugmented(request)) {
        // A CreateTaskResult, which ToolServer lets through unchecked as a CallToolResult.
        return (await callToolAsTask(gateway, tasks, call, principal)) as unknown as CallToolResult;
      }
      return answered(await gateway.call(call, principal, ctx.mcpReq.signal));
    }
    const definition = servedVersion(gateway.registry, params.name, principal)?.definition;
    const kind = definition?.kind;
    // A tool that may need a person's confirmation learns whether this client can ask them.
    const consent = confirmations && definition?.confirm ? confirmations.channelOf(ctx) : undefined;
    const consenting = consent ? { ...call, consent } : call;
    if (tasks && principal && kind !== undefined && kind !== 'read' && acceptsTasks(ctx)) {
      return (await callToolServerDirected(gateway, tasks, consenting, principal, (question) =>
        confirmations!.ask(question, ctx),
      )) as CallToolResult;
    }
    const answer = await gateway.call(consenting, principal, ctx.mcpReq.signal);
    if (answer.kind === 'ask') return (await confirmations!.ask(answer.question, ctx)) as never;
    return answered(answer);
  });
  if (tasks && era === 'legacy') serveTasks(server, tasks, principalOf);
  if (tasks && era === 'modern') serveTaskExtension(server, tasks, principalOf);
  return server;
}

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's server with the two answers of 2025-11-25 tasks its handler seam does not know: a
 * task-augmented tools/call answers `CreateTaskResult` (a result the revision defines for it, which the
 * seam would check as a `CallToolResult`), and `initialize` announces tasks only to clients of a revision
 * that defines them; older ones see what they saw.
 */
class ToolServer extends Server {
  readonly era: Era;

  constructor(era: Era, options: ConstructorParameters<typeof Server>[1]) {
    super({ ...SERVER_INFO }, options);
    this.era = era;
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    if (method === 'initialize') {
      return async (request, ctx) => withTasksOnlySince(await wrapped(request, ctx));
    }
    if (method !== 'tools/call') return wrapped;
    // The handler still validates the request against the revision's schema before it runs.
    return (request, ctx) =>
      this.era === 'legacy' && isTaskAugmented(request) ? handler(request, ctx) : wrapped(request, ctx);
  }
}

/** A tools/call whose params carry a well-formed `task` (anything else is the SDK's -32602). */
function isTaskAugmented(request: { params?: unknown }): boolean {
  const task = (request.params as { task?: unknown } | undefined)?.task;
  return typeof task === 'object' && task !== null && !Array.isArray(task);
}

function withTasksOnlySince(result: Result): Result {
  const { protocolVersion, capabilities } = result as {
    protocolVersion?: string;
    capabilities?: Record<string, unknown>;
  };
  if (!capabilities?.tasks || (protocolVersion ?? '') >= TASKS_SINCE_PROTOCOL) return result;
  const { tasks: _, ...rest } = capabilities;
  return { ...result, capabilities: rest };
}
