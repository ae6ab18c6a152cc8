import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { RegisteredTool, ToolRegistry } from '../contract/tool-registry.ts';

/**
 * Layer 1. An unknown tool or arguments that are not an object could not be interpreted at all:
 * that is a JSON-RPC error (-32602), not a tool result.
 */
export function resolveTool(registry: ToolRegistry, name: string): RegisteredTool {
  const tool = registry.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 80)}`);
  return tool;
}

export function requireArgumentsObject(args: unknown): Record<string, unknown> {
  if (args === undefined) return {};
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new McpError(ErrorCode.InvalidParams, 'Tool arguments must be a JSON object');
  }
  return args as Record<string, unknown>;
}
