import type { IncomingHttpHeaders } from 'node:http';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import { servedVersion } from '../contract/tool-versions.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { declaresFormElicitation } from './confirmation-elicitation.ts';
import { type DirectHandler, listingReply, paramsRefusal } from './direct-methods.ts';
import { asCompleteResult, REVISION_2026 } from './results-2026.ts';
import type { SerializedListings } from './serialized-listings.ts';
import { acceptsTasksIn } from './task-extension.ts';
import { callJson } from './tool-results.ts';

const ENVELOPE_VERSION = 'io.modelcontextprotocol/protocolVersion';
/** Members of a multi-round-trip retry: such a request is the SDK's to answer. */
const RETRY_MEMBERS = ['inputResponses', 'requestState'];

interface Request2026 {
  readonly id: string | number;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * The 2026-07-28 hot path: a plain tools/call and tools/list, answered without a per-request SDK server
 * (which costs about as much again as the call itself). It takes only requests the SDK's entry would
 * serve unchanged: the revision served, the envelope with client capabilities, `MCP-Protocol-Version`,
 * `Mcp-Method` and `Mcp-Name` present and equal to the body, no multi-round-trip retry, no call the
 * Tasks extension could answer as a task, and no call that may ask the person to confirm it. Everything else, every refusal included, goes to the SDK.
 * The results are stamped as the SDK stamps them (`resultType`, `serverInfo`, the listing's cache hints).
 */
export class Direct2026 {
  readonly #gateway: Gateway;
  readonly #listings: SerializedListings;
  readonly #tasksServed: boolean;
  readonly #confirmationsAsked: boolean;

  constructor(
    gateway: Gateway,
    listings: SerializedListings,
    tasksServed: boolean,
    confirmationsAsked: boolean,
  ) {
    this.#gateway = gateway;
    this.#listings = listings;
    this.#tasksServed = tasksServed;
    this.#confirmationsAsked = confirmationsAsked;
  }

  /** How to answer this request on the direct path, or null when the SDK's entry answers it. */
  handlerFor(body: unknown, principal: Principal, headers: IncomingHttpHeaders): DirectHandler | null {
    const message = body as Request2026;
    const params = message.params;
    if (!this.#plain(message, headers)) return null;
    if (message.method === 'tools/list') {
      const page = this.#listings.resultFor(principal, params?.cursor);
      return page.ok ? listingReply(message.id, page.page) : paramsRefusal(message.id, page.reason);
    }
    const name = params?.name;
    if (typeof name !== 'string' || headers['mcp-name']?.toString().trim() !== name) return null;
    const args = params?.arguments;
    if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return null;
    const definition = servedVersion(this.#gateway.registry, name, principal)?.definition;
    const kind = definition?.kind;
    if (this.#tasksServed && kind !== undefined && kind !== 'read' && acceptsTasksIn(params?._meta))
      return null;
    // A call that may put a question to the person is answered by the SDK's entry, which asks.
    if (this.#confirmationsAsked && definition?.confirm && declaresFormElicitation(params?._meta))
      return null;
    const call = {
      name,
      arguments: args as Record<string, unknown> | undefined,
      _meta: params?._meta as Record<string, unknown> | undefined,
      traceparent: typeof headers.traceparent === 'string' ? headers.traceparent : undefined,
    };
    return {
      kind: 'run',
      run: async (signal) => asCompleteResult(await callJson(this.#gateway, call, principal, signal)),
    };
  }

  /** A tools/call or tools/list the SDK would serve as it is, by its headers and its envelope. */
  #plain(message: Request2026, headers: IncomingHttpHeaders): boolean {
    if (message.method !== 'tools/call' && message.method !== 'tools/list') return false;
    if (headers['mcp-protocol-version'] !== REVISION_2026 || headers['mcp-method'] !== message.method) {
      return false;
    }
    const params = message.params;
    const meta = params?._meta as Record<string, unknown> | undefined;
    if (meta?.[ENVELOPE_VERSION] !== REVISION_2026) return false;
    const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
    if (typeof capabilities !== 'object' || capabilities === null) return false;
    return !RETRY_MEMBERS.some((member) => params !== undefined && member in params);
  }
}
