import type { JSONRPCNotification, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';

export type IncomingMessageKind =
  | { kind: 'request'; message: JSONRPCRequest }
  | { kind: 'notification'; message: JSONRPCNotification }
  | { kind: 'reply' }
  | { kind: 'invalid' };

/**
 * Sorts one JSON-RPC message by shape. Deliberately a few property checks rather than a schema
 * parse: it runs on every call, and the SDK server validates each method's params anyway.
 */
export function classifyMessage(value: unknown): IncomingMessageKind {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'invalid' };
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return { kind: 'invalid' };
  const params = message.params;
  if (params !== undefined && (params === null || typeof params !== 'object')) return { kind: 'invalid' };
  if (typeof message.method === 'string') {
    if (!('id' in message)) return { kind: 'notification', message: value as JSONRPCNotification };
    const id = message.id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))) {
      return { kind: 'request', message: value as JSONRPCRequest };
    }
    return { kind: 'invalid' };
  }
  if ('id' in message && ('result' in message || 'error' in message)) return { kind: 'reply' };
  return { kind: 'invalid' };
}
