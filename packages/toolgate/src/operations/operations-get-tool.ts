import { z } from 'zod';
import { defineTool } from '../contract/define-tool.ts';
import { defineErrorCodes } from '../contract/error-catalog.ts';
import { outcome } from '../contract/outcome.ts';
import { OPERATION_ID_PATTERN } from './operation-id.ts';
import { OPERATION_STATUSES, type OperationRecord } from './operation-record.ts';
import type { OperationStore } from './operation-store.ts';
import type { OperatorConfirmations } from './operator-confirmations.ts';
import { withholdingView } from './request-summary.ts';

/**
 * The fields a served tool marks sensitive, in the contract version given (undefined for none or a
 * tool no longer served).
 */
export type SensitiveFieldsOf = (tool: string, contractVersion: string) => readonly string[] | undefined;

const errors = defineErrorCodes({
  OPERATION_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description:
      'No operation with this id is visible to the caller; check the operation_id from the earlier tool result.',
  },
});

/**
 * The statuses operations_get reports. A call parked for an approver is `in_progress` to its caller (the
 * message says it waits for an approver); the operator API tells `awaiting_confirmation` apart.
 */
const reportedStatus = z.enum(OPERATION_STATUSES).exclude(['awaiting_confirmation']);

const operationView = z.strictObject({
  operation_id: z.string().describe('The operation id, as requested.'),
  tool: z.string().describe('The tool whose call created the operation.'),
  contract_version: z
    .string()
    .describe('The contract version of that tool that served the call (its later deliveries too).'),
  status: reportedStatus.describe(
    'in_progress, a settled status, outcome_unknown (being reconciled) or needs_review (an operator decides).',
  ),
  // The stored envelope has the fields of this very answer (explained once, in the server instructions):
  // typing it again here would repeat the whole envelope in operations_get's schema.
  outcome: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'The stored outcome envelope (status, code, message, resolution, result, ...); null while in progress. ' +
        'To the principal that made the call it is the whole outcome, as a retry with the same key would replay it. ' +
        "To anyone else (an operator) its result shows the top-level scalar fields only: nested objects and arrays (addresses, items) and the tool's sensitive fields are withheld and named under result.withheld, the operator API's rule.",
    ),
  delivery_attempts: z.number().int().describe('Deliveries that executed this operation.'),
  reconcile_attempts: z.number().int().describe('Times the owning system was asked what happened.'),
  reconcile_note: z.string().nullable().describe('What the last reconciliation or review found.'),
  next_check_at: z
    .string()
    .nullable()
    .describe('When the owning system is asked next (ISO 8601), or when an in-progress lease runs out.'),
  external_refs: z.record(z.string(), z.string()).describe('Identifiers the external systems gave it.'),
  created_at: z.string().describe('When the first delivery created the operation (ISO 8601).'),
  updated_at: z.string().describe('When the status or stored outcome last changed (ISO 8601).'),
  expires_at: z.string().describe('When this record is purged (retention).'),
});

/** The `operations_get` read tool: the state of one operation the caller may see. */
export function operationsGetTool(
  store: OperationStore,
  confirmations?: OperatorConfirmations,
  sensitiveFieldsOf: SensitiveFieldsOf = () => undefined,
) {
  return defineTool({
    name: 'operations_get',
    title: 'Get operation status',
    description:
      'Returns the status, stored outcome and reconciliation state of one of your operations, by the ' +
      'operation_id a write or request tool returned. Use it after outcome_unknown or in_progress instead of ' +
      'starting a new operation. Operators see every operation of their tenant.',
    kind: 'read',
    version: '2.3.0',
    input: z.strictObject({
      operation_id: z
        .string()
        .regex(OPERATION_ID_PATTERN)
        .describe('The operation_id from an earlier result: op_ followed by 26 characters.'),
    }),
    output: operationView,
    errors: [errors.OPERATION_NOT_FOUND],
    scopes: ['operations:read'],
    timeoutMs: 5_000,
    examples: [
      { title: 'Check an unknown outcome', input: { operation_id: 'op_01JD3Q5W7X9Y2Z4A6B8C0D1E2F' } },
    ],
    async handler(input, ctx) {
      // Someone else's operation answers exactly like one that does not exist; an operator reads the tenant's.
      const { tenant, subject, actor } = ctx.principal;
      const found = await store.findOwned(input.operation_id, tenant, actor === 'operator' ? null : subject);
      if (!found) {
        return outcome.rejected(
          errors.OPERATION_NOT_FOUND.code,
          `No operation ${input.operation_id} is visible to this caller.`,
          {
            resolution:
              'Use the operation_id from the earlier tool result, with the same identity that made it.',
          },
        );
      }
      // A question that waited past its expiry is settled now, not reported as still waiting.
      const record = confirmations ? await confirmations.expireIfDue(found) : found;
      const { message, resolution } = describeStatus(record);
      // The top-level message says where the operation stands, never only that the read worked.
      // The requester reads its own outcome whole (a retry of its key replays the same); anyone else
      // reads it through the operator API's rule.
      const own = record.subject === ctx.principal.subject;
      return outcome.completed(
        viewOf(record, own ? null : (sensitiveFieldsOf(record.tool, record.contractVersion) ?? [])),
        {
          message,
          ...(resolution ? { resolution } : {}),
        },
      );
    },
  });
}

const POLL = 'Do not start a new operation for the same change; call operations_get again later.';

/** What the caller should know and do about an operation in this status. */
export function describeStatus(record: OperationRecord): { message: string; resolution: string | null } {
  const what = `Operation ${record.id} (${record.tool})`;
  const whether = `whether operation ${record.id} (${record.tool})`;
  const code = record.envelope?.code ? ` (${record.envelope.code})` : '';
  switch (record.status) {
    case 'in_progress':
      return { message: `${what} is still running.`, resolution: POLL };
    case 'completed':
      return { message: `${what} completed; outcome holds its result.`, resolution: null };
    case 'submitted':
      return {
        message: `${what} was submitted; the other party has not decided yet. Report it as requested, not done.`,
        resolution: null,
      };
    case 'rejected':
      return { message: `${what} was refused${code}; nothing was changed.`, resolution: null };
    case 'requires_confirmation':
      return {
        message: `${what} needs the user's confirmation${code}; nothing was changed.`,
        resolution: null,
      };
    case 'failed':
      return {
        message: `${what} failed${code}; nothing was changed.`,
        resolution: 'It may be retried with the same idempotency_key.',
      };
    case 'outcome_unknown':
      return {
        message: `It is not known yet ${whether} took effect; the gateway is asking the owning system.`,
        resolution: POLL,
      };
    case 'needs_review':
      return {
        message: `It could not be established automatically ${whether} took effect; an operator is reviewing it.`,
        resolution: `Tell the user it awaits review. ${POLL}`,
      };
    case 'awaiting_confirmation':
      return {
        message: `${what} waits for an approver to confirm it in the operator console; nothing was executed yet.`,
        resolution: `Tell the user an approver must confirm it (by ${new Date(record.expiresAt).toISOString()}, or it is rejected). ${POLL}`,
      };
  }
}

/**
 * The operation as a reader sees it; with `sensitiveFields` (a reader other than the requester), its
 * outcome's result is shown by the operator API's rule (withholdingView).
 */
function viewOf(
  record: OperationRecord,
  sensitiveFields: readonly string[] | null,
): z.output<typeof operationView> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const stored = record.envelope;
  const result = stored?.result;
  return {
    operation_id: record.id,
    tool: record.tool,
    contract_version: record.contractVersion,
    status: record.status === 'awaiting_confirmation' ? 'in_progress' : record.status,
    outcome:
      sensitiveFields !== null && stored && result !== null && typeof result === 'object'
        ? { ...stored, result: withholdingView(result as Record<string, unknown>, sensitiveFields) }
        : stored,
    delivery_attempts: record.attempts,
    reconcile_attempts: record.reconcileAttempts,
    reconcile_note: record.reconcileNote,
    next_check_at: record.nextCheckAt === null ? null : iso(record.nextCheckAt),
    external_refs: record.externalRefs,
    created_at: iso(record.createdAt),
    updated_at: iso(record.updatedAt),
    expires_at: iso(record.expiresAt),
  };
}
