import type { FieldError, Warning } from './envelope.ts';
import { OK_STATUSES, type OutcomeEnvelope, type OutcomeStatus } from './envelope.ts';
import type { ErrorCodeSpec } from './error-catalog.ts';
import type { RegisteredTool } from './tool-registry.ts';

export interface EnvelopeFields {
  status: OutcomeStatus;
  code?: string | null;
  message?: string;
  resolution?: string | null;
  field_errors?: FieldError[];
  result?: unknown;
  warnings?: Warning[];
  operation_id?: string | null;
  replayed?: boolean;
}

/** The resolution of every outcome_unknown: settle the existing operation, never start another. */
export const POLL_INSTEAD_RESOLUTION =
  'Do not start a new operation: poll operations_get with the operation_id, or retry with the same idempotency_key.';

const DEFAULT_MESSAGES: Record<OutcomeStatus, string> = {
  completed: 'The operation completed.',
  validated: 'The request is valid; nothing was changed (dry run).',
  submitted: 'The request was submitted; the other party decides later.',
  requires_confirmation: 'Nothing was changed; confirmation is needed.',
  rejected: 'The request was refused; nothing was changed.',
  outcome_unknown: 'It is not known whether the change happened.',
  in_progress: 'Another delivery of this operation is still running.',
  failed: 'The call failed; nothing was changed.',
};

/**
 * The gateway's own database did not answer. Before execution nothing ran: `failed`, retry later with
 * the same key. Once a write may have executed: `outcome_unknown`, settled by the same-key rule.
 */
export function storeUnavailable(
  tool: RegisteredTool,
  call: { readonly correlationId: string },
  mayHaveEffect: boolean,
  operationId: string | null = null,
): OutcomeEnvelope {
  const retry =
    tool.definition.kind === 'read' ? 'Retry the call later.' : 'Retry later with the same idempotency_key.';
  return buildEnvelope(tool, {
    status: mayHaveEffect ? 'outcome_unknown' : 'failed',
    code: 'DEPENDENCY_UNAVAILABLE',
    message: mayHaveEffect
      ? `The gateway's database stopped answering during the call (correlation id ${call.correlationId}); the change may or may not have happened.`
      : `The gateway's database is not answering (correlation id ${call.correlationId}); nothing was executed.`,
    resolution: mayHaveEffect ? POLL_INSTEAD_RESOLUTION : retry,
    operation_id: operationId,
  });
}

/** The contract an envelope answers for: the tool's name and version, and the codes it may answer with. */
export interface EnvelopeSource {
  readonly tool: string;
  readonly contractVersion: string;
  readonly errors: ReadonlyMap<string, ErrorCodeSpec>;
}

/** Builds a complete envelope for a tool this process serves. */
export function buildEnvelope(tool: RegisteredTool, fields: EnvelopeFields): OutcomeEnvelope {
  return envelopeFrom(
    { tool: tool.definition.name, contractVersion: tool.definition.version, errors: tool.errors },
    fields,
  );
}

/** Builds a complete envelope: every field present, category and retryable from the catalog. */
export function envelopeFrom(source: EnvelopeSource, fields: EnvelopeFields): OutcomeEnvelope {
  const code = fields.code ?? null;
  const spec = code ? source.errors.get(code) : undefined;
  return {
    ok: OK_STATUSES.has(fields.status),
    tool: source.tool,
    contract_version: source.contractVersion,
    status: fields.status,
    operation_id: fields.operation_id ?? null,
    replayed: fields.replayed ?? false,
    code,
    category: spec?.category ?? null,
    message: fields.message ?? DEFAULT_MESSAGES[fields.status],
    retryable: spec?.retryable ?? false,
    resolution: fields.resolution ?? null,
    field_errors: fields.field_errors ?? [],
    result: (fields.result ?? null) as Record<string, unknown> | null,
    warnings: fields.warnings ?? [],
  };
}
