import type { ConfirmationAsk, ConfirmationView, Principal } from 'toolgate';
import { outcome, type ToolOutcome } from 'toolgate';
import type { CreationClaims } from './change-create-claims.ts';
import type { PreparedChange } from './change-creation.ts';
import type { AppliedException, ChangeRequest } from './change-policy.ts';
import type { ChangeCreateResult } from './change-schemas.ts';
import type { ChangeService } from './change-service.ts';
import { formatAtOffset, offsetMinutesOf } from './rfc3339.ts';
import type { ChangeDraft } from './systems/change-platform/change-record.ts';

/** The contract's words for when a person confirms a change_create call. */
export const CONFIRM_WHEN = 'executions (dry_run false) in production';

/**
 * What the review decides and the confirmation binds: the plan the person agreed to, including the
 * exception it goes ahead under outside the windows.
 */
function decidedFacts(draft: ChangeDraft, exception: AppliedException | null): Record<string, unknown> {
  return {
    maintenance_exception: exception?.exception_id ?? null,
    service_id: draft.service_id,
    environment: draft.environment,
    start_at: draft.start_at,
    end_at: draft.start_at + draft.duration_minutes * 60_000,
    effective_risk: draft.effective_risk,
    approval_required: draft.approval_required,
    approval_group: draft.approval_group,
  };
}

/** The prepared change of an accepted review (what the claim and the platform steps work from). */
export function preparedChange(
  request: ChangeRequest,
  draft: ChangeDraft,
  warnings: PreparedChange['warnings'],
  exception: AppliedException | null,
): PreparedChange {
  return {
    draft,
    implementation_plan: request.implementation_plan,
    rollback_plan: request.rollback_plan,
    warnings,
    exception,
  };
}

/**
 * The person's question for a production execution, from the same review a dry run reports: the
 * service, the window, the effective risk and who approves, and an identical change of theirs made in
 * the duplicate window. Null when no confirmation applies: not production, or a review that refuses
 * (the handler then gives that refusal, exactly as without a confirmation).
 */
export async function askToCreate(
  service: ChangeService,
  claims: CreationClaims,
  request: ChangeRequest,
  principal: Principal,
): Promise<ConfirmationAsk | null> {
  if (request.environment !== 'production') return null;
  const verdict = await service.review(request, principal);
  if (!verdict.accepted) return null;
  const { draft } = verdict;
  const earlier = await claims.latestCreated(
    principal,
    preparedChange(request, draft, verdict.warnings, verdict.exception),
  );
  const at = (ms: number) => formatAtOffset(ms, offsetMinutesOf(request.start_time));
  const endAt = draft.start_at + draft.duration_minutes * 60_000;
  const approval = draft.approval_required ? `approval by ${draft.approval_group}` : 'no approval needed';
  const excepted = verdict.exception
    ? ` The start is outside every approved window, under exception ${verdict.exception.exception_id} granted by ${verdict.exception.granted_by}.`
    : '';
  const duplicate = earlier
    ? ` An identical change request of yours was created as operation ${earlier.operationId} at ${new Date(earlier.createdAt).toISOString()}; this creates another, separate change.`
    : '';
  return {
    message: `Create a ${draft.effective_risk}-risk production change of ${draft.service_id} from ${at(draft.start_at)} to ${at(endAt)}, with ${approval}?${excepted}${duplicate}`,
    details: {
      service: draft.service_id,
      environment: draft.environment,
      summary: `"${draft.summary}"`,
      start: at(draft.start_at),
      end: at(endAt),
      requested_risk: draft.requested_risk,
      effective_risk: draft.effective_risk,
      approval_group: draft.approval_required ? draft.approval_group : null,
      identical_change: earlier ? `operation ${earlier.operationId}` : null,
      maintenance_exception: verdict.exception
        ? `${verdict.exception.exception_id} (granted by ${verdict.exception.granted_by})`
        : null,
    },
    facts: { ...decidedFacts(draft, verdict.exception), duplicate_of: earlier?.operationId ?? null },
  };
}

/**
 * Whether an execution may go on with the draft its own review produced: a production execution
 * needs the person's confirmation of exactly that plan (risk, approval, window, service). A review
 * that now decides something else (another exception, or none), or a production execution nobody confirmed (the question's review
 * refused, this one accepts), is CONFIRMATION_MISMATCH and nothing is created.
 */
export function confirmationRefusal(
  draft: ChangeDraft,
  exception: AppliedException | null,
  confirmation: ConfirmationView | null,
): ToolOutcome<ChangeCreateResult> | null {
  if (draft.environment !== 'production') return null;
  const expected = decidedFacts(draft, exception);
  const confirmed = confirmation?.facts ?? {};
  const differs = Object.entries(expected).filter(([name, value]) => confirmed[name] !== value);
  if (confirmation && differs.length === 0) return null;
  const what = confirmation ? differs.map(([name]) => name).join(', ') : 'the whole change';
  return outcome.failed(
    'CONFIRMATION_MISMATCH',
    `The change as reviewed now differs from what the user confirmed (${what}); nothing was created.`,
    {
      resolution:
        'Run the dry run again, show the user the result, and call again with dry_run false so that they are asked about the change as it is now.',
    },
  );
}

/** The earlier change the person agreed to duplicate, when the question named one. */
export function acceptedDuplicate(confirmation: ConfirmationView | null): string | null {
  const earlier = confirmation?.facts.duplicate_of;
  return typeof earlier === 'string' ? earlier : null;
}
