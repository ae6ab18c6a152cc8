import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC error codes the transport answers itself, before a message reaches the server. */
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
  if (id !== null) {
    if (isJSONRPCRequest(value)) return { kind: 'request', message: value as JSONRPCRequest };
  } else if (isJSONRPCNotification(value)) {
    return { kind: 'notification', message: value as JSONRPCNotification };
  }
  return invalid(
    id,
    INVALID_PARAMS,
    'params must be an object whose _meta is an object and whose progressToken is a string or an integer',
  );
}

function usableId(id: unknown): RequestId | null {
  if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  return null;
}

function invalid(id: RequestId | null, code: number, reason: string): IncomingMessageKind {
  return { kind: 'invalid', id, code, reason };
}
