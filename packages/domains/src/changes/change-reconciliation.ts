import {
  ExternalOutcomeUnknownError,
  ExternalRejectedError,
  ExternalUnavailableError,
} from '@toolgate/simulation';
import type { OperationSnapshot, ReconcileVerdict } from 'toolgate';
import { outcome } from 'toolgate';
import { createdResult, creationOutcome } from './change-create-outcomes.ts';
import { completeChange, contractProblems, preparedFrom } from './change-creation.ts';
import type { ChangeCreateResult } from './change-schemas.ts';
import type { ChangePlatform } from './systems/change-platform/change-platform.ts';
import {
  changeRecordSchema,
  VISIBLE_STATES,
  type VisibleState,
} from './systems/change-platform/change-record.ts';

/**
 * Settles a change_create operation whose outcome is unknown by asking the change platform what
 * it holds for the operation id. A complete change settles as completed; a change part-way made
 * is finished from the operation's recovery points (the platform applies each step once, so this
 * never makes a second record); an operation the platform never saw settles as not created.
 * While the platform does not answer, the operation stays unknown.
 */
export async function reconcileChangeCreation(
  platform: ChangePlatform,
  operation: OperationSnapshot,
  signal: AbortSignal,
): Promise<ReconcileVerdict<ChangeCreateResult>> {
  let status: Awaited<ReturnType<ChangePlatform['operationStatus']>>;
  try {
    status = await platform.operationStatus(operation.id, signal);
  } catch (error) {
    if (isExternal(error))
      return { settled: false, note: `change platform did not answer: ${error.message}` };
    throw error;
  }
  const answered = status ? changeRecordSchema.safeParse(status.record) : null;
  if (answered && !answered.success) {
    const fields = contractProblems(answered.error).map((p) => p.field);
    return { settled: false, note: `change platform answer breaks its contract (${fields.join(', ')})` };
  }
  const prepared = preparedFrom(operation.checkpoints);
  if (status && VISIBLE_STATES.includes(status.record.state as VisibleState)) {
    return {
      settled: true,
      outcome: outcome.completed(createdResult(status.record, false, prepared?.exception ?? null), {
        message: `Change ${status.record.change_id} exists and is ${status.record.state}.`,
        warnings: prepared?.warnings ?? [],
      }),
    };
  }
  if (status?.record.state === 'abandoned') {
    return {
      settled: true,
      outcome: outcome.rejected(
        'CHANGE_PLATFORM_REJECTED',
        'The change platform refused the change part-way; nothing is visible.',
      ),
    };
  }
  if (!prepared) {
    if (status)
      return { settled: false, note: `draft ${status.record.change_id} exists without a recovery point` };
    return {
      settled: true,
      outcome: outcome.rejected(
        'CHANGE_NOT_CREATED',
        'The change platform never received this request; nothing was created.',
        {
          resolution:
            'If the change is still wanted, validate it again with a dry run and create it with a new idempotency_key.',
        },
      ),
    };
  }
  const creation = await completeChange(
    platform,
    operation.id,
    prepared,
    { done: operation.checkpoints, save: async () => {}, noteChangeId: async () => {} },
    signal,
  );
  if (creation.kind === 'unavailable' || creation.kind === 'unknown') {
    return { settled: false, note: 'change platform did not answer while finishing the change' };
  }
  if (creation.kind === 'malformed') {
    const fields = creation.problems.map((p) => p.field);
    return { settled: false, note: `change platform answer breaks its contract (${fields.join(', ')})` };
  }
  return { settled: true, outcome: creationOutcome(creation, prepared) };
}

function isExternal(error: unknown): error is Error {
  return (
    error instanceof ExternalUnavailableError ||
    error instanceof ExternalOutcomeUnknownError ||
    error instanceof ExternalRejectedError
  );
}
