/** Where `toolgate serve` listens unless told otherwise, and the path of the MCP endpoint. */
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const MCP_PATH = '/mcp';
