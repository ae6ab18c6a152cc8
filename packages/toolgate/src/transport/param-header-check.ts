import type { IncomingHttpHeaders } from 'node:http';
import type { ParamHeader } from '../contract/param-headers.ts';

/** MCP's HeaderMismatch: the request's headers and its body disagree. */
export const HEADER_MISMATCH = -32020;

const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Why a call's `Mcp-Param-*` headers cannot be trusted to describe it, or null when they agree. */
export interface HeaderDisagreement {
  readonly header: string;
  readonly message: string;
}

/**
 * Checks a tools/call's mirrored headers against its arguments, as SEP-2243 asks of a server: a field
 * the body carries needs its header, decoding (a `=?base64?...?=` value is UTF-8 in canonical Base64)
 * to the same value; a field that is absent or null needs none. Numbers compare as numbers.
 */
export function paramHeaderDisagreement(
  declarations: readonly ParamHeader[],
  args: unknown,
  headers: IncomingHttpHeaders,
  required = true,
): HeaderDisagreement | null {
  for (const { field, header, type } of declarations) {
    const value = (args as Record<string, unknown> | null | undefined)?.[field];
    const expected = primitiveText(value);
    const name = `Mcp-Param-${header}`;
    const raw = headers[name.toLowerCase()];
    if (expected === null) {
      if (required || raw === undefined) continue;
      return { header: name, message: `the ${name} header is sent but the body carries no ${field}` };
    }
    if (raw === undefined && !required) continue;
    if (typeof raw !== 'string') {
      return { header: name, message: `the body carries ${field} but the ${name} header is absent` };
    }
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === null) {
      return { header: name, message: `the ${name} header carries an invalid Base64 value` };
    }
    const numeric = (type === 'number' || type === 'integer') && typeof value === 'number';
    const agrees = numeric && DECIMAL.test(decoded) ? Number(decoded) === value : decoded === expected;
    if (!agrees) {
      return {
        header: name,
        message: `the ${name} header says ${JSON.stringify(decoded)} but the body carries ${field}=${JSON.stringify(value)}`,
      };
    }
  }
  return null;
}

/** One message of a 2025-era POST, as far as its standard headers speak of it. */
export interface HeaderedMessage {
  readonly method: string;
  readonly params?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The standard headers of a 2025-era POST against its messages. That revision sends none, but a
 * balancer may route on them (docs/protocol.md), so a request whose `Mcp-Method`, `Mcp-Name` or
 * `Mcp-Param-*` headers say something its body does not is refused as on the 2026 leg. Only headers that
 * are present are checked; `paramHeadersOf` gives the served tool's declarations.
 */
export function standardHeaderDisagreement(
  headers: IncomingHttpHeaders,
  messages: readonly HeaderedMessage[],
  paramHeadersOf: (tool: string) => readonly ParamHeader[],
): HeaderDisagreement | null {
  const method = single(headers['mcp-method']);
  const name = single(headers['mcp-name']);
  const anyParam = Object.keys(headers).some((key) => key.startsWith('mcp-param-'));
  if (method === undefined && name === undefined && !anyParam) return null;
  for (const message of messages) {
    if (method !== undefined && method !== message.method) {
      return {
        header: 'Mcp-Method',
        message: `the Mcp-Method header says ${JSON.stringify(method)} but the body carries ${message.method}`,
      };
    }
    const tool = message.method === 'tools/call' ? message.params?.name : undefined;
    // Mcp-Name names the tool of a tools/call and the task of a tasks/* request.
    const named = message.method.startsWith('tasks/') ? message.params?.taskId : tool;
    if (name !== undefined && name !== named) {
      return {
        header: 'Mcp-Name',
        message: `the Mcp-Name header says ${JSON.stringify(name)} but the body names ${typeof named === 'string' ? named : 'nothing'}`,
      };
    }
    if (anyParam && typeof tool === 'string') {
      const disagreement = paramHeaderDisagreement(
        paramHeadersOf(tool),
        message.params?.arguments,
        headers,
        false,
      );
      if (disagreement) return disagreement;
    }
  }
  return null;
}

/** A standard header's value, decoded when sent as a `=?base64?...?=` sentinel (undecodable as sent). */
function single(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value.join(',').trim() : value?.trim();
  return raw === undefined ? undefined : (decodeHeaderValue(raw) ?? raw);
}

function primitiveText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function decodeHeaderValue(value: string): string | null {
  if (!(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX))) return value;
  const payload = value.slice(BASE64_PREFIX.length, -BASE64_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(payload, 'base64'));
  } catch {
    return null;
  }
}
