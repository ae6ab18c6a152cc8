import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import { buildEnvelope } from '../contract/envelope-builder.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

/**
 * The authorization layer: the tool's required scopes against the verified principal. It runs before
 * the input layer, so that a caller who may not use a tool learns nothing about its input schema.
 * Answers the refusal (`failed` / `FORBIDDEN`, nothing executed), or null when the principal holds
 * every scope the tool requires.
 */
export function authorizationRefusal(tool: RegisteredTool, principal: Principal): OutcomeEnvelope | null {
  const missing = missingScopes(tool, principal);
  if (missing.length === 0) return null;
  return buildEnvelope(tool, {
    status: 'failed',
    code: 'FORBIDDEN',
    message: `This caller is not allowed to use ${tool.definition.name}.`,
    resolution: `Requires scope(s): ${missing.join(', ')}. Ask someone who holds them; do not retry.`,
  });
}

/** The tool's required scopes the principal does not hold (none: its scopes let it use the tool). */
export function missingScopes(tool: RegisteredTool, principal: Principal): string[] {
  return tool.definition.scopes.filter((scope) => !principal.scopes.has(scope));
}
