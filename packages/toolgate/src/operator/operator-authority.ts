import type { Principal } from '../auth/principal.ts';

export const OPERATOR_SCOPES = [
  'operations:read',
  'operations:review',
  'operations:confirm',
  'changes:approve',
] as const;

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

/**
 * Confirming or refusing a call parked for an approver (the `operator` confirmation fallback):
 * `operations:confirm`, whatever the actor. Authorizing a new effect is another capability than saying
 * what happened to one (`operations:review`); the requester can never approve their own call.
 */
export function mayConfirmOperations(principal: Principal): boolean {
  return principal.scopes.has('operations:confirm');
}

/**
 * Granting or revoking an exception to a rule (a change outside its maintenance window): the
 * approver's `changes:approve`, whatever the actor. The grant is recorded under the token's subject,
 * and never applies to a change that same subject requests.
 */
export function mayGrantExceptions(principal: Principal): boolean {
  return principal.scopes.has('changes:approve');
}

/** Listing exceptions: whoever may grant them, or read the operator plane. */
export function mayReadExceptions(principal: Principal): boolean {
  return mayGrantExceptions(principal) || mayReadOperations(principal);
}
