import type { AnyToolDefinition, HonouredException, PolicyEntity, PolicyHookContext } from 'toolgate';

/** Resolves what a call acts on for the policies; null when the caller's tenant holds no such thing. */
export type PolicyResourceHook = (
  input: Record<string, unknown>,
  ctx: PolicyHookContext,
) => Promise<PolicyEntity | null>;

/** The tool with its policy resource hook: the same contract (nothing an agent sees changes). */
export function withPolicyResource<T extends AnyToolDefinition>(
  tool: T,
  policyResource: PolicyResourceHook,
): T {
  return Object.freeze({ ...tool, policyResource });
}

/** The tool with the exception kinds it honours (its policies read those in force as `context.facts.exceptions`). */
export function withHonouredExceptions<T extends AnyToolDefinition>(
  tool: T,
  exceptions: readonly HonouredException[],
): T {
  return Object.freeze({ ...tool, exceptions });
}
