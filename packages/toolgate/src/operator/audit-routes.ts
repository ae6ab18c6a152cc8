import { parseActivityWindow, readActivityHistory } from './activity-history.ts';
import { mayReadOperations } from './operator-authority.ts';
import { encodeCursor, parseAuditFilter } from './operator-query.ts';
import { type OperatorReplies, type OperatorRouter, readNeed } from './operator-route-context.ts';

/** The audit trail and the activity drawn from it. */
export function auditRoutes(routes: OperatorRouter, replies: OperatorReplies): void {
  const { app, reply, refuseScope, badQuery } = replies;
  const { db, operations } = app;
  routes.on('GET', '/operator/v1/audit', async ({ res, url, principal }) => {
    if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
    const filter = parseAuditFilter(url.searchParams);
    if (!filter.ok) return badQuery(res, filter.problems);
    const { operationId, subject, since, afterSeq, limit } = filter.value;
    const entries = await operations.audit.list({
      tenant: principal.tenant,
      limit,
      ...(operationId !== undefined ? { operationId } : {}),
      ...(subject !== undefined ? { subject } : {}),
      ...(since !== undefined ? { since } : {}),
      ...(afterSeq !== undefined ? { after: afterSeq } : {}),
    });
    const last = entries.length === limit ? entries.at(-1) : undefined;
    return reply(res, 200, {
      entries,
      next_cursor: last ? encodeCursor(last.seq) : null,
      retention_seconds: operations.auditRetentionSeconds,
    });
  });
  routes.on('GET', '/operator/v1/activity', async ({ res, url, principal }) => {
    if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
    const window = parseActivityWindow(url.searchParams, Date.now());
    if (!window.ok) return badQuery(res, window.problems);
    return reply(res, 200, await readActivityHistory(db, principal.tenant, window.value));
  });
}
