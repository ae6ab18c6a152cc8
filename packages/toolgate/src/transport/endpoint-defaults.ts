/**
 * Where `toolgate serve` listens unless told otherwise, the path of the MCP endpoint, the connection
 * limits: defaults the CLI reads without loading the HTTP server.
 */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const MCP_PATH = '/mcp';

/** Connection limits of the HTTP server; each has a `serve` flag. */
export interface HttpConnectionLimits {
  /** Time a client has to send the request headers. */
  readonly headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMs: number;
  /** Concurrent connections; further ones are refused until one closes. */
  readonly maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: HttpConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_024,
};
