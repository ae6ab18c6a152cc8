import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { claimsEnvelope2026, REVISION_2026 } from './results-2026.ts';

/** Which revision's path of `/mcp` answers a POST, or `refused` for a message the 2026 path refuses. */
export type Revision = '2025-11-25' | '2026-07-28' | 'refused';

/**
 * Which revision answers a parsed POST body, by the SDK's own classification: `2025-11-25` for 2025-era traffic
 * (the `initialize` handshake and everything without the per-request `_meta` envelope), `2026-07-28` for a
 * well-formed 2026-07-28 message, `refused` for one the 2026 path refuses (a malformed envelope,
 * headers that contradict the body). A message that is not well-formed JSON-RPC cannot claim an
 * envelope either: the 2025 path answers it, message by message, under its id.
 *
 * The SDK's classifier costs about 19 µs a request in a running gateway (docs/performance.md), so the
 * two common shapes are recognized without it, each only where the SDK's rules leave no doubt; anything
 * else is classified by the SDK. `packages/toolgate/test/transport/revision-of.test.ts` holds the shortcuts to the classifier.
 */
export function revisionOf(req: IncomingMessage, body: unknown): Revision {
  if (plainly2025(req, body)) return '2025-11-25';
  if (plainly2026(req, body)) return '2026-07-28';
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: single(req.headers['mcp-protocol-version']),
    mcpMethodHeader: single(req.headers['mcp-method']),
    mcpNameHeader: single(req.headers['mcp-name']),
    body,
  });
  if (outcome.kind === 'legacy' || (outcome.kind === 'reject' && outcome.rung === 'jsonrpc-shape')) {
    return '2025-11-25';
  }
  return outcome.kind === 'modern' ? '2026-07-28' : 'refused';
}

/** The revisions of the 2025 era the handshake path serves. */
const VERSIONS_2025: ReadonlySet<string> = new Set(SUPPORTED_PROTOCOL_VERSIONS);
const ENVELOPE_PREFIX = 'io.modelcontextprotocol/';
const ENVELOPE_VERSION = `${ENVELOPE_PREFIX}protocolVersion`;
const ENVELOPE_CAPABILITIES = `${ENVELOPE_PREFIX}clientCapabilities`;
const ENVELOPE_CLIENT = `${ENVELOPE_PREFIX}clientInfo`;
const CLIENT_INFO_FIELDS = new Set(['name', 'version', 'title']);

/** No standard 2026 header, a 2025 protocol version or none, and no message claiming the envelope. */
function plainly2025(req: IncomingMessage, body: unknown): boolean {
  const { headers } = req;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return false;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && !(typeof version === 'string' && VERSIONS_2025.has(version))) return false;
  return Array.isArray(body) ? !body.some(claimsEnvelope2026) : !claimsEnvelope2026(body);
}

/**
 * A tools/call or tools/list as current clients send it: one well-formed request, the envelope with
 * nothing but the revision, capabilities that are empty objects, and plain client info, and the
 * standard headers exactly equal to the body.
 */
function plainly2026(req: IncomingMessage, body: unknown): boolean {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0') return false;
  const { id, method, params } = body;
  if (!(typeof id === 'string' || Number.isSafeInteger(id))) return false;
  if ((method !== 'tools/call' && method !== 'tools/list') || !isPlainObject(params)) return false;
  const { headers } = req;
  if (headers['mcp-protocol-version'] !== REVISION_2026 || headers['mcp-method'] !== method) return false;
  const named = method === 'tools/call' ? params.name : undefined;
  if (method === 'tools/call' && typeof named !== 'string') return false;
  if (headers['mcp-name'] !== named) return false;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return false;
  if (params.cursor !== undefined && typeof params.cursor !== 'string') return false;
  const meta = params._meta;
  if (!isPlainObject(meta) || meta[ENVELOPE_VERSION] !== REVISION_2026) return false;
  for (const key of Object.keys(meta)) {
    if (
      key.startsWith(ENVELOPE_PREFIX) &&
      key !== ENVELOPE_VERSION &&
      key !== ENVELOPE_CAPABILITIES &&
      key !== ENVELOPE_CLIENT
    ) {
      return false;
    }
  }
  const capabilities = meta[ENVELOPE_CAPABILITIES];
  if (!isPlainObject(capabilities) || !Object.values(capabilities).every(isEmptyObject)) return false;
  const client = meta[ENVELOPE_CLIENT];
  if (client === undefined) return true;
  return (
    isPlainObject(client) &&
    typeof client.name === 'string' &&
    typeof client.version === 'string' &&
    Object.entries(client).every(([k, v]) => CLIENT_INFO_FIELDS.has(k) && typeof v === 'string')
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
