import {
  type JSONRPCNotification,
  type JSONRPCRequest,
  RELATED_TASK_META_KEY,
  type RequestId,
} from '@modelcontextprotocol/server';

/** JSON-RPC error codes the transport answers itself, before a message reaches the server. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

export type IncomingMessageKind =
  | { kind: 'request'; message: JSONRPCRequest }
  | { kind: 'notification'; message: JSONRPCNotification }
  | { kind: 'reply' }
  | { kind: 'invalid'; id: RequestId | null; code: number; reason: string };

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Sorts one JSON-RPC message by shape, with exactly the checks the SDK server applies before it
 * dispatches (anything it would drop as "Unknown message type" is `invalid` here), so that every
 * request that reaches the server is one it answers. An invalid message carries the error to answer
 * it with: -32602 when only `params` is wrong, -32600 otherwise, under its id when it has a usable one.
 */
export function classifyMessage(value: unknown): IncomingMessageKind {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return invalid(null, INVALID_REQUEST, 'not a JSON-RPC 2.0 message');
  }
  const message = value as Record<string, unknown>;
  const id = usableId(message.id);
  if (message.jsonrpc !== '2.0') return invalid(id, INVALID_REQUEST, 'jsonrpc must be "2.0"');
  if (typeof message.method !== 'string') {
    if ('id' in message && ('result' in message || 'error' in message)) return { kind: 'reply' };
    return invalid(id, INVALID_REQUEST, 'not a JSON-RPC 2.0 message');
  }
  if ('id' in message && id === null) {
    return invalid(null, INVALID_REQUEST, 'id must be a string or an integer');
  }
  if (Object.keys(message).some((key) => !MESSAGE_KEYS.has(key))) {
    return invalid(id, INVALID_REQUEST, 'unknown member in a JSON-RPC 2.0 message');
  }
  if (message.method === 'initialize' && id !== null && !initializeParamsAreWellFormed(message.params)) {
    return invalid(
      id,
      INVALID_PARAMS,
      'initialize needs params {protocolVersion: string, capabilities: object, clientInfo: {name: string, version: string}}',
    );
  }
  if (paramsAreWellFormed(message.params)) {
    return id !== null
      ? { kind: 'request', message: value as JSONRPCRequest }
      : { kind: 'notification', message: value as JSONRPCNotification };
  }
  return invalid(
    id,
    INVALID_PARAMS,
    'params must be an object whose _meta is an object and whose progressToken is a string or an integer',
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The SDK's `JSONRPCRequestSchema`/`JSONRPCNotificationSchema` rule for `params`, checked by hand on the
 * hot path (the schemas cost a zod parse per message): absent, or an object whose `_meta`, if present,
 * is an object with a string or integer `progressToken` and a related-task `{ taskId: string }`.
 */
function paramsAreWellFormed(params: unknown): boolean {
  if (params === undefined) return true;
  if (!isObject(params)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isObject(meta)) return false;
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) return false;
  const related = meta[RELATED_TASK_META_KEY];
  return related === undefined || (isObject(related) && typeof related.taskId === 'string');
}

/**
 * What the SDK's InitializeRequest schema requires, checked before the server sees it: its own failure
 * answers -32603 with the raw schema issues.
 */
function initializeParamsAreWellFormed(params: unknown): boolean {
  if (!isObject(params) || typeof params.protocolVersion !== 'string' || !isObject(params.capabilities))
    return false;
  const client = params.clientInfo;
  return isObject(client) && typeof client.name === 'string' && typeof client.version === 'string';
}

function usableId(id: unknown): RequestId | null {
  if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  return null;
}

function invalid(id: RequestId | null, code: number, reason: string): IncomingMessageKind {
  return { kind: 'invalid', id, code, reason };
}

/** A JSON-RPC error answer; `id` is null when the message had no usable id (JSON-RPC 2.0, section 5). */
export interface JsonRpcErrorReply {
  readonly jsonrpc: '2.0';
  readonly id: RequestId | null;
  readonly error: { readonly code: number; readonly message: string };
}

/** The answer to a message `classifyMessage` found invalid, under its id when it has a usable one. */
export function invalidMessageReply(
  message: Extract<IncomingMessageKind, { kind: 'invalid' }>,
): JsonRpcErrorReply {
  const kind = message.code === INVALID_REQUEST ? 'Invalid Request' : 'Invalid params';
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: message.code, message: `${kind}: ${message.reason}` },
  };
}
