import type { OutcomeEnvelope } from '../contract/envelope.ts';
import {
  buildEnvelope,
  type EnvelopeFields,
  envelopeFrom,
  POLL_INSTEAD_RESOLUTION,
} from '../contract/envelope-builder.ts';
import type { ErrorCodeSpec } from '../contract/error-catalog.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';
import type { OperationRecord } from './operation-record.ts';

/**
 * An envelope about a stored record, built from the record itself. The reconciler, the review
 * queue and the CLI use it for records whose tool this process may not serve (or no longer serves).
 */
function recordEnvelope(
  record: Pick<OperationRecord, 'id' | 'tool' | 'contractVersion'>,
  catalog: ReadonlyMap<string, ErrorCodeSpec>,
  fields: EnvelopeFields,
): OutcomeEnvelope {
  return envelopeFrom(
    { tool: record.tool, contractVersion: record.contractVersion, errors: catalog },
    { ...fields, operation_id: record.id },
  );
}

export function conflictEnvelope(tool: RegisteredTool, existing: OperationRecord): OutcomeEnvelope {
  return buildEnvelope(tool, {
    status: 'failed',
    code: 'IDEMPOTENCY_CONFLICT',
    message: `This idempotency_key was already used for a different request (operation ${existing.id}); nothing was executed.`,
    resolution:
      'A new request needs a new idempotency_key. To retry the earlier request, send exactly its arguments again.',
    operation_id: existing.id,
  });
}

export function inProgressEnvelope(tool: RegisteredTool, operationId: string): OutcomeEnvelope {
  return buildEnvelope(tool, {
    status: 'in_progress',
    code: 'OPERATION_IN_PROGRESS',
    message: 'Another delivery of this operation is still running; it has not finished yet.',
    resolution: 'Poll operations_get with the operation_id; do not start a new operation.',
    operation_id: operationId,
  });
}

export function possibleDuplicateEnvelope(
  tool: RegisteredTool,
  earlier: OperationRecord,
  confirmField: string,
  now: number,
): OutcomeEnvelope {
  const seconds = Math.max(0, Math.round((now - earlier.createdAt) / 1000));
  return buildEnvelope(tool, {
    status: 'requires_confirmation',
    code: 'POSSIBLE_DUPLICATE',
    message: `An identical request was made ${seconds} s ago as operation ${earlier.id} (${earlier.status}); nothing was changed now.`,
    resolution: `Ask the user whether this is a new, separate request. If it is, call again with ${confirmField}: true and a new idempotency_key; if not, report operation ${earlier.id} (see operations_get).`,
  });
}

/** The delivery executing the record stopped answering (crash, lost process) before recording its outcome. */
export function abandonedEnvelope(
  record: OperationRecord,
  catalog: ReadonlyMap<string, ErrorCodeSpec>,
): OutcomeEnvelope {
  return recordEnvelope(record, catalog, {
    status: 'outcome_unknown',
    code: 'OUTCOME_UNKNOWN',
    message:
      'The delivery executing this operation stopped before recording its outcome; it may or may not have taken effect. It is being reconciled.',
    resolution: POLL_INSTEAD_RESOLUTION,
  });
}

/** Reconciliation gave up (or the destination has no status query): a person decides. */
export function needsReviewEnvelope(
  record: OperationRecord,
  catalog: ReadonlyMap<string, ErrorCodeSpec>,
): OutcomeEnvelope {
  return recordEnvelope(record, catalog, {
    status: 'outcome_unknown',
    code: 'OUTCOME_UNKNOWN',
    message:
      'It could not be established whether this operation took effect; it is waiting for review by an operator.',
    resolution:
      'Tell the user the outcome is not known yet and an operator is reviewing it; do not start a new operation. Poll operations_get later.',
  });
}

export type ReviewResolution = 'completed' | 'rejected';

export function resolvedEnvelope(
  record: OperationRecord,
  catalog: ReadonlyMap<string, ErrorCodeSpec>,
  resolution: ReviewResolution,
  note: string,
): OutcomeEnvelope {
  if (resolution === 'completed') {
    return recordEnvelope(record, catalog, {
      status: 'completed',
      message: `An operator confirmed this operation took effect: ${note}`,
      resolution: 'Report it as done; the details are with the owning system.',
    });
  }
  return recordEnvelope(record, catalog, {
    status: 'rejected',
    code: 'REJECTED_IN_REVIEW',
    message: `An operator found this operation did not take effect: ${note}`,
    resolution: 'If the change is still wanted, make a new request with a new idempotency_key.',
  });
}

/** A call parked for an approver (the `operator` confirmation fallback): reserved, nothing executed yet. */
export function parkedEnvelope(
  tool: RegisteredTool,
  operationId: string,
  message: string,
  expiresAt: number,
): OutcomeEnvelope {
  const until = new Date(expiresAt).toISOString();
  return buildEnvelope(tool, {
    status: 'in_progress',
    code: 'CONFIRMATION_PENDING',
    message: `${message} An approver must confirm this request in the operator console before it runs; nothing was executed yet.`,
    resolution: `Tell the user an approver must confirm it (by ${until}; unconfirmed by then, it is rejected). Poll operations_get with the operation_id; do not start a new operation, and retry only with the same idempotency_key.`,
    operation_id: operationId,
  });
}

export function confirmationDeclinedEnvelope(
  record: OperationRecord,
  catalog: ReadonlyMap<string, ErrorCodeSpec>,
  approver: string,
): OutcomeEnvelope {
  return recordEnvelope(record, catalog, {
    status: 'rejected',
    code: 'CONFIRMATION_DECLINED',
    message: `An approver (${approver}) refused this request; nothing was executed.`,
    resolution: 'Tell the user it was refused; do not call again unless they ask for it.',
  });
}

export function confirmationMismatchEnvelope(
  record: OperationRecord,
  catalog: ReadonlyMap<string, ErrorCodeSpec>,
): OutcomeEnvelope {
  return recordEnvelope(record, catalog, {
    status: 'failed',
    code: 'CONFIRMATION_MISMATCH',
    message:
      'Not executed: when the approver confirmed, the request would no longer do what they were shown.',
    resolution:
      'Call again with the same arguments and idempotency_key so that an approver is asked about the request as it is now.',
  });
}

export function confirmationExpiredEnvelope(
  record: OperationRecord,
  catalog: ReadonlyMap<string, ErrorCodeSpec>,
): OutcomeEnvelope {
  return recordEnvelope(record, catalog, {
    status: 'rejected',
    code: 'CONFIRMATION_EXPIRED',
    message: 'No approver confirmed this request in time; nothing was executed.',
    resolution:
      'Tell the user it expired unconfirmed; only if they still want it, make a new request with a new idempotency_key.',
  });
}
