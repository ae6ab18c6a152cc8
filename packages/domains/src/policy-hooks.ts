import type { AnyToolDefinition, PolicyEntity, PolicyHookContext } from 'toolgate';

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

/** Looks up the facts a tool's policies read as `context.facts`. */
export type PolicyFactsHook = (
  input: Record<string, unknown>,
  ctx: PolicyHookContext,
) => Promise<Readonly<Record<string, unknown>>>;

/** The tool with its policy facts hook: the same contract (nothing an agent sees changes). */
export function withPolicyFacts<T extends AnyToolDefinition>(tool: T, policyFacts: PolicyFactsHook): T {
  return Object.freeze({ ...tool, policyFacts });
}
