import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { RegisteredTool, ToolRegistry } from '../contract/tool-registry.ts';
import { pinAllows, servedVersion } from '../contract/tool-versions.ts';
import { missingScopes } from './authorization-layer.ts';

/**
 * A JSON-RPC error with a plain message: the SDK answers `code` and `message` of whatever a handler
 * throws, and the direct paths do the same.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/**
 * The protocol layer. An unknown tool or arguments that are not an object could not be interpreted at all:
 * that is a JSON-RPC error (-32602), not a tool result. An unknown name is answered with the closest
 * names among the tools this caller may use. A name served in two versions resolves to the one this
 * principal is served; a call pinning another version (`_meta`) is answered as for an unknown name,
 * so a caller cannot reach a version it is not shown.
 */
export function resolveTool(
  registry: ToolRegistry,
  name: string,
  principal: Principal | null,
  meta?: Readonly<Record<string, unknown>>,
): RegisteredTool {
  const tool = servedVersion(registry, name, principal);
  if (tool && pinAllows(meta, tool)) return tool;
  const shown = name.slice(0, 64);
  const usable = [...new Set(registry.all().map((candidate) => candidate.definition.name))]
    .map((candidate) => registry.get(candidate)!)
    .filter((candidate) => principal !== null && missingScopes(candidate, principal).length === 0)
    .map((candidate) => candidate.definition.name);
  const nearest = usable
    .map((candidate) => ({ candidate, distance: editDistance(shown, candidate) }))
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, 3)
    .map((n) => n.candidate);
  const suggestion = nearest.length > 0 ? ` Closest tools you may use: ${nearest.join(', ')}.` : '';
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `No tool is named ${JSON.stringify(shown)}.${suggestion} tools/list lists them all.`,
  );
}

export function requireArgumentsObject(args: unknown): Record<string, unknown> {
  if (args === undefined) return {};
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Tool arguments must be a JSON object.');
  }
  return args as Record<string, unknown>;
}

/** Levenshtein distance; names are at most 64 characters, so the quadratic table is tiny. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
