import type { ExceptionDefinition } from './define-exception.ts';
import type { AnyToolDefinition } from './define-tool.ts';

/** The operator plane's own scopes; every other scope an approver holds is declared by a module. */
export const FRAMEWORK_OPERATOR_SCOPES = [
  'operations:read',
  'operations:review',
  'operations:confirm',
] as const;

const SCOPE = /^[a-z][a-z0-9_.-]*(:[a-z0-9_.-]+)+$/;

/** A scope a module may declare for its approvers: well formed, and not one of the framework's. */
export function isApproverScope(scope: string): boolean {
  return SCOPE.test(scope) && !scope.startsWith('operations:');
}

/** What one approver scope gates: granting an exception kind, or deciding one tool's confirmations or reviews. */
export type ApproverGate =
  | { readonly gates: 'exception'; readonly kind: string }
  | { readonly gates: 'confirmation' | 'review'; readonly tool: string };

/** One approver scope a module declared, with everything it gates (listed in the contract). */
export interface ApproverScope {
  readonly scope: string;
  readonly gates: readonly ApproverGate[];
}

/**
 * The approver scopes a gateway's modules declare, from their exception kinds (`grantScope`) and tools
 * (`confirm.approverScope`, `reviewScope`), sorted by scope: what the operator API checks beside its own.
 */
export function approverScopesOf(
  exceptions: readonly ExceptionDefinition[],
  tools: readonly AnyToolDefinition[],
): ApproverScope[] {
  const byScope = new Map<string, ApproverGate[]>();
  const add = (scope: string, gate: ApproverGate) =>
    byScope.set(scope, [...(byScope.get(scope) ?? []), gate]);
  for (const exception of exceptions) add(exception.grantScope, { gates: 'exception', kind: exception.kind });
  for (const tool of tools) {
    if (tool.confirm?.approverScope)
      add(tool.confirm.approverScope, { gates: 'confirmation', tool: tool.name });
    if (tool.reviewScope) add(tool.reviewScope, { gates: 'review', tool: tool.name });
  }
  return [...byScope.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([scope, gates]) => ({ scope, gates }));
}
