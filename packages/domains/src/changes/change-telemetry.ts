import type { CallAnnotations, DependencyResult } from 'toolgate';
import type { CreationOutcome, PreparedChange } from './change-creation.ts';
import { PRODUCTION_APPROVERS } from './risk-policy.ts';

/**
 * What a reviewed change tells its call's audit entry and span: the approval it needs (`none`, the
 * service's `owner_group`, or the `production_approvers`), and the maintenance exception it goes ahead
 * under, when it is outside every window. Bounded tokens, never the group's own name.
 */
export function reviewAnnotations(
  draft: Pick<PreparedChange['draft'], 'approval_required' | 'approval_group'>,
  exception: PreparedChange['exception'],
): CallAnnotations {
  const approval = !draft.approval_required
    ? 'none'
    : draft.approval_group === PRODUCTION_APPROVERS
      ? 'production_approvers'
      : 'owner_group';
  return exception
    ? { approval, exception_id: exception.exception_id, granted_by: exception.granted_by }
    : { approval };
}

const CREATION_RESULTS: Readonly<Record<CreationOutcome['kind'], DependencyResult>> = {
  complete: 'ok',
  rejected: 'refused',
  unavailable: 'unavailable',
  unknown: 'unknown',
  malformed: 'invalid_answer',
};

/** What the change platform answered a creation, as the call's dependency result. */
export function creationDependencyResult(creation: CreationOutcome): DependencyResult {
  return CREATION_RESULTS[creation.kind];
}
