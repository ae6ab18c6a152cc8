import { z } from 'zod';
import { DEFAULT_RETENTION_SECONDS } from '../app/create-app.ts';
import { gatewayErrors } from '../contract/error-catalog.ts';
import type { ToolRegistry } from '../contract/tool-registry.ts';
import { AuditLog } from '../operations/audit-log.ts';
import { OPERATION_ID_PATTERN } from '../operations/operation-id.ts';
import { type OperationRecord, snapshotOf } from '../operations/operation-record.ts';
import { ReviewQueue } from '../operations/review-queue.ts';
import type { SqlDatabase } from '../store/sql-database.ts';
import { createLogger } from '../telemetry/logger.ts';

const resolutionSchema = z.strictObject({
  operationId: z.string().regex(OPERATION_ID_PATTERN, 'must be op_ followed by 26 characters'),
  as: z.enum(['completed', 'rejected']),
  note: z.string().trim().min(3).max(500),
  operator: z.string().trim().min(1).max(100),
  reference: z.string().trim().min(1).max(200).optional(),
  retentionSeconds: z.coerce.number().int().min(60),
});

export interface ReviewCommandInput {
  readonly tenant?: string;
  readonly json?: boolean;
  readonly resolve?: string;
  readonly as?: string;
  readonly note?: string;
  readonly operator?: string;
  readonly reference?: string;
  readonly retentionSeconds?: string;
}

/**
 * In-process review over an open database (embedding and tests; the `toolgate operations review`
 * command goes through the operator API instead, see operator-api-review.ts). Lists the operations
 * awaiting review, or records an operator's resolution of one and lets the tool's domain follow it
 * (`onReviewResolved`, when `registry` serves the tool). Returns the process exit code:
 * 0 done, 1 the operation cannot be resolved, 2 invalid arguments.
 */
export async function reviewOperations(
  db: SqlDatabase,
  input: ReviewCommandInput,
  out: (line: string) => void,
  registry?: ToolRegistry,
): Promise<number> {
  const queue = new ReviewQueue(
    db,
    new Map(Object.values(gatewayErrors).map((e) => [e.code, e])),
    new AuditLog(db, createLogger({ level: 'warn' })),
  );
  if (input.resolve === undefined) {
    const pending = await queue.pending(input.tenant);
    if (input.json) out(JSON.stringify(pending.map(listingOf), null, 2));
    else if (pending.length === 0) out('No operations need review.');
    else for (const record of pending) out(lineOf(record));
    return 0;
  }
  const parsed = resolutionSchema.safeParse({
    operationId: input.resolve,
    as: input.as,
    note: input.note,
    operator: input.operator,
    reference: input.reference,
    retentionSeconds: input.retentionSeconds ?? DEFAULT_RETENTION_SECONDS,
  });
  if (!parsed.success) {
    const flag: Record<string, string> = { operationId: 'resolve', retentionSeconds: 'retention-seconds' };
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0]);
      out(`--${flag[name] ?? name}: ${issue.message}`);
    }
    return 2;
  }
  const { operationId, as, note, operator, reference, retentionSeconds } = parsed.data;
  const result = await queue.resolve(
    { operationId, resolution: as, note, operator, now: Date.now() },
    retentionSeconds,
  );
  if (!result.ok) {
    out(
      result.reason === 'not_found'
        ? `No operation ${operationId}.`
        : `Operation ${operationId} is ${result.status}; only needs_review or outcome_unknown operations can be resolved.`,
    );
    return 1;
  }
  const follow = registry?.get(result.record.tool)?.definition.onReviewResolved;
  if (follow) await follow(snapshotOf(result.record), { resolution: as, note, reference: reference ?? null });
  out(input.json ? JSON.stringify(listingOf(result.record), null, 2) : `Resolved ${operationId} as ${as}.`);
  return 0;
}

function listingOf(record: OperationRecord) {
  return {
    operation_id: record.id,
    tenant: record.tenant,
    subject: record.subject,
    tool: record.tool,
    status: record.status,
    reconcile_attempts: record.reconcileAttempts,
    note: record.reconcileNote,
    created_at: new Date(record.createdAt).toISOString(),
    updated_at: new Date(record.updatedAt).toISOString(),
  };
}

function lineOf(record: OperationRecord): string {
  const when = new Date(record.createdAt).toISOString();
  return `${record.id}  ${record.tenant}/${record.subject}  ${record.tool}  ${when}  attempts=${record.reconcileAttempts}  ${record.reconcileNote ?? ''}`;
}
