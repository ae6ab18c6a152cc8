import type { ToolOutcome } from 'toolgate';
import { outcome } from 'toolgate';
import type { CreationClaim } from './change-create-claims.ts';
import type { CreationOutcome, PreparedChange } from './change-creation.ts';
import type { AppliedException } from './change-policy.ts';
import type { ChangeCreateResult } from './change-schemas.ts';
import type { ChangeDraft, ChangeRecord } from './systems/change-platform/change-record.ts';

const SAME_KEY =
  'Do not start a new change: retry with the same idempotency_key (the creation resumes where it stopped) or poll operations_get with the operation_id.';

/** Why an identical earlier request stops this one; nothing was sent to the platform. */
export function claimRefusal(
  claim: Exclude<CreationClaim, { kind: 'claimed' }>,
): ToolOutcome<ChangeCreateResult> {
  if (claim.kind === 'exception_withdrawn') {
    return outcome.rejected(
      'MAINTENANCE_WINDOW_REQUIRED',
      `Exception ${claim.exceptionId}, which allowed this start outside the approved windows, no longer applies (it was revoked); nothing was created.`,
      {
        resolution:
          'Run the dry run again: it names the next approved window. Ask the user to choose a time inside it, or an approver to grant a new exception.',
        field_errors: [
          {
            field: 'start_time',
            code: 'EXCEPTION_WITHDRAWN',
            message: `Exception ${claim.exceptionId} no longer applies.`,
          },
        ],
      },
    );
  }
  const earlier = claim.operationId;
  if (claim.kind === 'in_progress') {
    return outcome.rejected(
      'CHANGE_CREATION_IN_PROGRESS',
      `An identical change request of yours (operation ${earlier}) has not finished and its outcome is not established yet; nothing was created now.`,
      {
        resolution: `Poll operations_get with operation_id ${earlier} until it settles and report what it created; do not create this change again meanwhile, with any key and even with confirm_new_change. If the user still wants a separate change after it settled, send the request with a new idempotency_key.`,
      },
    );
  }
  return outcome.requiresConfirmation(
    'POSSIBLE_DUPLICATE',
    `An identical change request was made ${claim.ageSeconds} s ago as operation ${earlier} and created its change; nothing was created now.`,
    {
      resolution: `Ask the user whether this is a new, separate change. If it is, call again with confirm_new_change: true and a new idempotency_key (this key now holds this answer); if not, report operation ${earlier} (see operations_get).`,
    },
  );
}

/** The dry-run result: what would be created, with change_id null. */
export function validatedResult(draft: ChangeDraft, exception: AppliedException | null): ChangeCreateResult {
  return {
    change_id: null,
    state: 'validated',
    created: false,
    replayed: false,
    effective_risk: draft.effective_risk,
    approval_required: draft.approval_required,
    approval_group: draft.approval_group,
    scheduled_start: draft.start_time,
    maintenance_exception: exception,
  };
}

export function createdResult(
  record: ChangeRecord,
  replayed: boolean,
  exception: AppliedException | null,
): ChangeCreateResult {
  if (record.state === 'draft' || record.state === 'abandoned') {
    throw new Error(`change ${record.change_id} is ${record.state}, not complete`);
  }
  return {
    change_id: record.change_id,
    state: record.state,
    created: true,
    replayed,
    effective_risk: record.effective_risk,
    approval_required: record.approval_required,
    approval_group: record.approval_group,
    scheduled_start: record.start_time,
    maintenance_exception: exception,
  };
}

/** The agent-facing outcome of an attempt to finish the platform steps. */
export function creationOutcome(
  creation: CreationOutcome,
  prepared: PreparedChange,
): ToolOutcome<ChangeCreateResult> {
  switch (creation.kind) {
    case 'complete': {
      const { record } = creation;
      const next =
        record.state === 'pending_approval'
          ? `is pending approval by ${record.approval_group}`
          : `is ${record.state} for ${record.start_time}`;
      return outcome.completed(
        createdResult(record, creation.stepsApplied === 0, prepared.exception ?? null),
        {
          message: `Change ${record.change_id} was created and ${next}.`,
          warnings: prepared.warnings,
        },
      );
    }
    case 'unavailable':
      return creation.started
        ? outcome.unknown(
            'OUTCOME_UNKNOWN',
            'The change platform stopped answering part-way; the change is not complete yet and is not visible.',
            {
              resolution: SAME_KEY,
            },
          )
        : outcome.failed(
            'DEPENDENCY_UNAVAILABLE',
            'The change platform is unavailable; nothing was created.',
            {
              resolution: 'Retry later with the same arguments and the same idempotency_key.',
            },
          );
    case 'unknown':
      return outcome.unknown(
        'OUTCOME_UNKNOWN',
        'The change platform did not answer; the change may be part-way created and is not visible yet.',
        {
          resolution: SAME_KEY,
        },
      );
    case 'malformed':
      return outcome.unknown(
        'OUTPUT_CONTRACT_VIOLATION',
        `The change platform answered with a record that breaks its contract (missing or invalid: ${creation.problems.map((p) => p.field).join(', ')}); the change may have been created, but its state is not known.`,
        { resolution: SAME_KEY },
      );
    case 'rejected':
      return outcome.rejected(
        'CHANGE_PLATFORM_REJECTED',
        `The change platform refused the change: ${creation.message}`,
        {
          resolution: 'Report this to the user; nothing was created. Do not retry unchanged.',
        },
      );
  }
}
