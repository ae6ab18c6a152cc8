import type { Logger } from 'pino';
import { z } from 'zod';
import type { App } from '../app/create-app.ts';
import type { Principal } from '../auth/principal.ts';
import type { ReviewDecisionView } from '../contract/define-tool.ts';
import type { ToolRegistry } from '../contract/tool-registry.ts';
import { type OperationRecord, recordFromRow, snapshotOf } from '../operations/operation-record.ts';
import type { ReviewQueue } from '../operations/review-queue.ts';
import type { SqlExecutor } from '../store/sql-database.ts';
import { findTenantOperation, type OperationView, operationView } from './operation-listing.ts';
import { operatorText } from './operator-text.ts';

export const resolveRequestSchema = z.strictObject({
  outcome: z.enum(['completed', 'rejected']),
  reference: operatorText(1, 200).optional(),
  note: operatorText(3, 500, { multiline: true }),
});
export type ResolveRequest = z.infer<typeof resolveRequestSchema>;

/** The decision recorded for an operation, as the API shows it. */
export interface DecisionView {
  readonly operator: string;
  readonly outcome: string;
  readonly previous_status: string;
  readonly note: string;
  readonly at: string;
}

export type ResolveAnswer =
  | {
      readonly kind: 'resolved';
      readonly replayed: boolean;
      readonly operation: OperationView;
      readonly decision: DecisionView;
      /** Whether the tool's onReviewResolved hook ran: `none` when the tool has none. */
      readonly hook: 'ran' | 'none' | 'failed';
    }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'four_eyes'; readonly requester: string }
  | { readonly kind: 'refused'; readonly status: string; readonly reason: string }
  | { readonly kind: 'conflict'; readonly status: string; readonly decision: DecisionView | null };

export interface ResolveDeps {
  readonly db: SqlExecutor;
  readonly reviews: ReviewQueue;
  readonly registry: ToolRegistry;
  readonly retentionSeconds: number;
  readonly now: () => number;
  readonly logger: Logger;
}

/** What resolving needs, from the gateway it runs in. */
export function resolveDepsOf(app: App): ResolveDeps {
  return {
    db: app.db,
    reviews: app.operations.reviews,
    registry: app.registry,
    retentionSeconds: app.registry.options.retentionSeconds,
    now: () => app.clock.now(),
    logger: app.logger,
  };
}

/**
 * An operator's decision about an operation of their tenant, recorded under the token's subject.
 * Four eyes: the operation's requester (its tenant and subject) never decides it, whatever their
 * scopes; that refusal changes nothing. Idempotent: the same outcome again answers the first decision
 * (`replayed`), a different outcome or an operation that was settled without review is refused, and
 * the tool's hook runs once.
 */
export async function resolveOperation(
  deps: ResolveDeps,
  principal: Principal,
  operationId: string,
  request: ResolveRequest,
): Promise<ResolveAnswer> {
  const row = await findTenantOperation(deps.db, principal.tenant, operationId);
  if (!row) return { kind: 'not_found' };
  if (row.subject === principal.subject) return { kind: 'four_eyes', requester: row.subject };
  const refusal = await toolRefusal(deps, recordFromRow(row), request);
  if (refusal !== null) return { kind: 'refused', status: row.status, reason: refusal };
  const now = deps.now();
  const result = await deps.reviews.resolve(
    {
      operationId,
      resolution: request.outcome,
      note: request.note,
      operator: principal.subject,
      reference: request.reference ?? null,
      now,
    },
    deps.retentionSeconds,
  );
  if (!result.ok) {
    // Settled already: by an earlier decision (replay it, or refuse a different one) or without review.
    const first = await firstDecision(deps.db, operationId);
    const current = await findTenantOperation(deps.db, principal.tenant, operationId);
    if (first && current && first.outcome === request.outcome) {
      return {
        kind: 'resolved',
        replayed: true,
        operation: operationView(current),
        decision: first,
        hook: 'none',
      };
    }
    return { kind: 'conflict', status: current?.status ?? 'unknown', decision: first };
  }
  const hook = await runReviewHook(deps, result.record, request);
  const decision = (await firstDecision(deps.db, operationId))!;
  const settled = (await findTenantOperation(deps.db, principal.tenant, operationId))!;
  return { kind: 'resolved', replayed: false, operation: operationView(settled), decision, hook };
}

/**
 * The tool's reason not to take this decision about an operation still in review (a reference that
 * names nothing it holds), asked before anything is recorded; null when it has none or no check.
 */
async function toolRefusal(
  deps: ResolveDeps,
  record: OperationRecord,
  request: ResolveRequest,
): Promise<string | null> {
  if (record.status !== 'needs_review' && record.status !== 'outcome_unknown') return null;
  const check = deps.registry.get(record.tool, record.contractVersion)?.definition.checkReviewDecision;
  if (!check) return null;
  try {
    const verdict = await check(snapshotOf(record), reviewDecisionView(request));
    return verdict?.refuse ?? null;
  } catch (error) {
    // Unchecked is not accepted: a decision the domain cannot follow would leave its state behind.
    deps.logger.error({ err: error, op: record.id, tool: record.tool }, 'checkReviewDecision failed');
    return 'The tool could not check this decision now; try again later.';
  }
}

function reviewDecisionView(request: ResolveRequest): ReviewDecisionView {
  return { resolution: request.outcome, note: request.note, reference: request.reference ?? null };
}

async function runReviewHook(
  deps: ResolveDeps,
  record: OperationRecord,
  request: ResolveRequest,
): Promise<'ran' | 'none' | 'failed'> {
  const follow = deps.registry.get(record.tool, record.contractVersion)?.definition.onReviewResolved;
  if (!follow) return 'none';
  try {
    await follow(snapshotOf(record), reviewDecisionView(request));
    return 'ran';
  } catch (error) {
    // The decision stands (it is what the owning system did); the domain's follow-up needs a look.
    deps.logger.error({ err: error, op: record.id, tool: record.tool }, 'onReviewResolved hook failed');
    return 'failed';
  }
}

async function firstDecision(db: SqlExecutor, operationId: string): Promise<DecisionView | null> {
  const rows = await db.query<{
    operator: string;
    resolution: string;
    previous_status: string;
    note: string;
    at: unknown;
  }>(
    'SELECT operator, resolution, previous_status, note, at FROM operation_reviews WHERE operation_id = ? ORDER BY at LIMIT 1',
    [operationId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    operator: row.operator,
    outcome: row.resolution,
    previous_status: row.previous_status,
    note: row.note,
    at: new Date(Number(row.at)).toISOString(),
  };
}
