import type { Principal } from '../auth/principal.ts';
import type { ExceptionDefinition } from '../contract/define-exception.ts';
import type { ExceptionCatalog } from '../exceptions/exception-catalog.ts';

/** Reading the operator plane: `operations:review`, or `operations:read` held by an operator. */
export function mayReadOperations(principal: Principal): boolean {
  return (
    principal.scopes.has('operations:review') ||
    (principal.scopes.has('operations:read') && principal.actor === 'operator')
  );
}

/**
 * Deciding an operation's outcome: `operations:review`, whatever the actor, and the tool's own
 * `reviewScope` when its module declares one.
 */
export function mayReviewOperations(principal: Principal, reviewScope?: string): boolean {
  return principal.scopes.has('operations:review') && (!reviewScope || principal.scopes.has(reviewScope));
}

/**
 * Confirming or refusing a call parked for an approver (the `operator` confirmation fallback):
 * `operations:confirm`, whatever the actor, and the tool's own `confirm.approverScope` when its module
 * declares one. Authorizing a new effect is another capability than saying what happened to one
 * (`operations:review`); the requester can never approve their own call.
 */
export function mayConfirmOperations(principal: Principal, approverScope?: string): boolean {
  return (
    principal.scopes.has('operations:confirm') && (!approverScope || principal.scopes.has(approverScope))
  );
}

/**
 * Granting or revoking an exception of a kind: the kind's `grantScope` (declared by its module),
 * whatever the actor. The grant is recorded under the token's subject, and never applies to an action
 * that same subject requests.
 */
export function mayGrantException(principal: Principal, definition: ExceptionDefinition): boolean {
  return principal.scopes.has(definition.grantScope);
}

/** The kinds whose exceptions a token may list: those it may grant, or every one for a reader of the plane. */
export function readableExceptionKinds(principal: Principal, catalog: ExceptionCatalog): string[] {
  if (mayReadOperations(principal)) return catalog.kinds();
  return catalog.grantableBy(principal.scopes).map((d) => d.kind);
}

/** What a token may do on the operator plane, as `GET /operator/v1/me` answers it. */
export interface OperatorAuthorityView {
  readonly read_operations: boolean;
  readonly review: boolean;
  readonly confirm: boolean;
  /** The exception kinds it may grant and revoke. */
  readonly grant_exceptions: readonly string[];
}

export function operatorAuthority(principal: Principal, catalog: ExceptionCatalog): OperatorAuthorityView {
  return {
    read_operations: mayReadOperations(principal),
    review: mayReviewOperations(principal),
    confirm: mayConfirmOperations(principal),
    grant_exceptions: catalog.grantableBy(principal.scopes).map((d) => d.kind),
  };
}
