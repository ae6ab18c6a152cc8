import { recordFromRow } from '../operations/operation-record.ts';
import { confirmationQuestionView } from './answer-confirmation.ts';
import { askedOf } from './confirmation-routes.ts';
import { findTenantOperation, listOperations, operationView } from './operation-listing.ts';
import { mayConfirmOperations, mayReadOperations, mayReviewOperations } from './operator-authority.ts';
import { encodeCursor, parseOperationsFilter } from './operator-query.ts';
import {
  OPERATION_PATH,
  type OperatorReplies,
  type OperatorRouter,
  readNeed,
  zodProblems,
} from './operator-route-context.ts';
import { resolveDepsOf, resolveOperation, resolveRequestSchema } from './resolve-operation.ts';

/** Operations: the tenant's list, one operation with its history, and a reviewer's resolution. */
export function operationRoutes(routes: OperatorRouter, replies: OperatorReplies): void {
  const { app, reply, refuseScope, badQuery } = replies;
  const { db, operations } = app;
  routes.on('GET', '/operator/v1/operations', async ({ res, url, principal }) => {
    if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
    const filter = parseOperationsFilter(url.searchParams);
    if (!filter.ok) return badQuery(res, filter.problems);
    const rows = await listOperations(db, principal.tenant, filter.value);
    const last = rows.length === filter.value.limit ? rows.at(-1) : undefined;
    return reply(res, 200, {
      operations: rows.map(operationView),
      next_cursor: last ? encodeCursor(last.id) : null,
    });
  });
  routes.on('GET', OPERATION_PATH, async ({ res, principal }, { id }) => {
    const readsPlane = mayReadOperations(principal);
    if (!readsPlane && !mayConfirmOperations(principal)) return refuseScope(res, readNeed);
    const found = await findTenantOperation(db, principal.tenant, id!);
    if (!found) return reply(res, 404, { error: 'not_found' });
    // An approver who only confirms reads the operations it was asked about, nothing else of the tenant.
    if (!readsPlane && !(await askedOf(app, principal, found.id, found.tool, found.contract_version)))
      return reply(res, 404, { error: 'not_found' });
    // A question that waited past its expiry is settled before it is shown.
    await operations.confirmations.expireIfDue(recordFromRow(found));
    const row = (await findTenantOperation(db, principal.tenant, found.id))!;
    const [reviews, audit, parked] = await Promise.all([
      operations.reviews.history(row.id),
      operations.audit.list({ tenant: principal.tenant, operationId: row.id, limit: 200 }),
      operations.confirmations.find(principal.tenant, row.id),
    ]);
    return reply(res, 200, {
      operation: operationView(row),
      confirmation: parked ? confirmationQuestionView(parked) : null,
      reviews: reviews.map((r) => ({ ...r, at: new Date(Number(r.at)).toISOString() })),
      audit,
    });
  });
  routes.on('POST', `${OPERATION_PATH}/resolve`, async ({ req, res, principal }, { id }) => {
    if (!mayReviewOperations(principal)) return refuseScope(res, 'scope operations:review');
    if (await replies.refusedByToolScope(res, principal, id!, 'review')) return;
    const body = await replies.jsonBody(req, res);
    if (!body) return;
    const parsed = resolveRequestSchema.safeParse(body.json);
    if (!parsed.success) return badQuery(res, zodProblems(parsed.error.issues));
    const answer = await resolveOperation(resolveDepsOf(app), principal, id!, parsed.data);
    if (answer.kind === 'not_found') return reply(res, 404, { error: 'not_found' });
    if (answer.kind === 'four_eyes') {
      return reply(res, 403, {
        error: 'four_eyes',
        message: 'The requester of an operation cannot resolve it; another operator must.',
        requester: answer.requester,
      });
    }
    if (answer.kind === 'refused') {
      return reply(res, 409, {
        error: 'decision_refused',
        message: `${answer.reason} Nothing was recorded; the operation is still ${answer.status}.`,
        status: answer.status,
      });
    }
    if (answer.kind === 'conflict') {
      return reply(res, 409, {
        error: answer.decision ? 'conflicting_decision' : 'not_reviewable',
        message: answer.decision
          ? `This operation was already resolved as ${answer.decision.outcome}.`
          : `This operation is ${answer.status}; only needs_review or outcome_unknown operations can be resolved.`,
        status: answer.status,
        decision: answer.decision,
      });
    }
    const { kind: _kind, ...resolved } = answer;
    return reply(res, 200, resolved);
  });
}
