import type { Principal } from '../auth/principal.ts';

export const OPERATOR_SCOPES = ['operations:read', 'operations:review'] as const;

/** Reading the operator plane: `operations:review`, or `operations:read` held by an operator. */
export function mayReadOperations(principal: Principal): boolean {
  return (
    principal.scopes.has('operations:review') ||
    (principal.scopes.has('operations:read') && principal.actor === 'operator')
  );
}

/** Deciding an operation's outcome: `operations:review`, whatever the actor. */
export function mayReviewOperations(principal: Principal): boolean {
  return principal.scopes.has('operations:review');
}
