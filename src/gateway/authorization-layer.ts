import type { Principal } from '../auth/principal.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

/** Layer 4. The tool's required scopes against the verified principal; returns the missing ones. */
export function missingScopes(tool: RegisteredTool, principal: Principal): string[] {
  return tool.definition.scopes.filter((scope) => !principal.scopes.has(scope));
}
