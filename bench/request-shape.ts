/** A JSON-RPC call of a load case, before a protocol revision gives it its wire form. */
export interface JsonRpcCall {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** Arguments the tool mirrors into `Mcp-Param-{Name}` headers on 2026-07-28, header name -> value. */
  readonly mirrored?: Readonly<Record<string, string>>;
}

/** The two MCP protocol revisions `/mcp` serves. */
export type Revision = '2025-11-25' | '2026-07-28';

/**
 * How one protocol revision puts a call on the wire: the HTTP headers beside the body (besides
 * content-type, accept, content-length and authorization, which every request has) and the body. A
 * load case and the load generator take the shape as a parameter, so each case runs on either revision
 * with the same tool and the same arguments.
 */
export interface RequestShape {
  readonly revision: Revision;
  headers(call: JsonRpcCall): Readonly<Record<string, string>>;
  body(id: number | string, call: JsonRpcCall): string;
  /**
   * Why a result is not one this revision answers, or null: a 2026-07-28 result is stamped
   * `resultType: 'complete'`, a 2025 result has no `resultType`. The probe checks it, so a twin that a
   * server quietly answered on the other leg cannot pass for a measurement of its own.
   */
  mismatch(result: Record<string, unknown>): string | null;
}

const LEGACY_HEADERS = { 'mcp-protocol-version': '2025-11-25' } as const;

/**
 * 2025-11-25 as a stateless client sends it after the handshake: the `mcp-protocol-version` header and
 * a plain JSON-RPC body. The gateway and the v1 SDK anchors answer it without a session.
 */
export const legacyShape: RequestShape = {
  revision: '2025-11-25',
  headers: () => LEGACY_HEADERS,
  body: (id, call) => JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params: call.params }),
  mismatch: (result) =>
    'resultType' in result
      ? `a 2025-11-25 request answered with resultType ${String(result.resultType)}`
      : null,
};

/** The per-request envelope of 2026-07-28, as the v2 client sends it (client info included). */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'toolgate-bench', version: '1.0.0' },
} as const;

/**
 * 2026-07-28, stateless with no handshake: the envelope in `params._meta`, and the standard headers that
 * must agree with the body (`MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` on tools/call), or the
 * server refuses the request with HTTP 400.
 */
export const modernShape: RequestShape = {
  revision: '2026-07-28',
  headers: (call): Record<string, string> =>
    call.method === 'tools/call'
      ? {
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': call.method,
          'mcp-name': String(call.params.name),
          ...Object.fromEntries(
            Object.entries(call.mirrored ?? {}).map(([header, value]) => [`mcp-param-${header}`, value]),
          ),
        }
      : { 'mcp-protocol-version': '2026-07-28', 'mcp-method': call.method },
  body: (id, call) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params: { ...call.params, _meta: ENVELOPE } }),
  mismatch: (result) =>
    result.resultType === 'complete'
      ? null
      : `a 2026-07-28 request answered without resultType 'complete' (${String(result.resultType)})`,
};

/** Both revisions, the 2025 one first: each gateway case runs once per shape. */
export const REQUEST_SHAPES: readonly RequestShape[] = [legacyShape, modernShape];
