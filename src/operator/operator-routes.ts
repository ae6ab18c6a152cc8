import type { ServerResponse } from 'node:http';
import type { App } from '../app/create-app.ts';
import { sendJson } from '../transport/http-replies.ts';
import type { HttpRouteFamily, RouteRequest } from '../transport/http-server.ts';
import { readBody } from '../transport/read-body.ts';
import { findTenantOperation, listOperations, operationView } from './operation-listing.ts';
import { mayReadOperations, mayReviewOperations, OPERATOR_SCOPES } from './operator-authority.ts';
import {
  encodeCursor,
  parseAuditFilter,
  parseOperationsFilter,
  type QueryProblem,
} from './operator-query.ts';
import { resolveDepsOf, resolveOperation, resolveRequestSchema } from './resolve-operation.ts';
import { toolCatalogView } from './tool-catalog-view.ts';

export const OPERATOR_API_PREFIX = '/operator/v1/';
const BODY_LIMIT_BYTES = 16 * 1024;
const OPERATION_PATH = /^\/operator\/v1\/operations\/(op_[0-9A-Z]{26})(\/resolve)?$/;

/**
 * The operator API (docs/operator-api.md): JSON over the gateway's HTTP server, bearer tokens verified
 * as on /mcp by the transport, every answer confined to the token's tenant. Reads need
 * `operations:review` or an operator's `operations:read`; a decision needs `operations:review` and is
 * recorded under the token's subject.
 */
export function operatorRoutes(app: App): HttpRouteFamily {
  const { db, operations, registry, metrics } = app;
  const reply = (res: ServerResponse, status: number, body: unknown) =>
    sendJson(res, status, body, { 'cache-control': 'no-store' });
  const refuseScope = (res: ServerResponse, needed: string) =>
    reply(res, 403, { error: 'forbidden', message: `This token lacks ${needed}.` });
  const badQuery = (res: ServerResponse, problems: QueryProblem[]) =>
    reply(res, 400, { error: 'invalid_request', problems });

  async function handle({ req, res, url, principal }: RouteRequest): Promise<void> {
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'GET' && path === '/operator/v1/operations') {
      if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
      const filter = parseOperationsFilter(url.searchParams);
      if (!filter.ok) return badQuery(res, filter.problems);
      const rows = await listOperations(db, principal.tenant, filter.value);
      const last = rows.length === filter.value.limit ? rows.at(-1) : undefined;
      return reply(res, 200, {
        operations: rows.map(operationView),
        next_cursor: last ? encodeCursor(last.id) : null,
      });
    }
    if (method === 'GET' && path === '/operator/v1/audit') {
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
    }
    if (method === 'GET' && path === '/operator/v1/tools') {
      if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
      return reply(res, 200, { tools: await toolCatalogView(registry, metrics) });
    }
    const match = OPERATION_PATH.exec(path);
    if (match && method === 'GET' && !match[2]) {
      if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
      const row = await findTenantOperation(db, principal.tenant, match[1]!);
      if (!row) return reply(res, 404, { error: 'not_found' });
      const [reviews, audit] = await Promise.all([
        operations.reviews.history(row.id),
        operations.audit.list({ tenant: principal.tenant, operationId: row.id, limit: 200 }),
      ]);
      return reply(res, 200, {
        operation: operationView(row),
        reviews: reviews.map((r) => ({ ...r, at: new Date(Number(r.at)).toISOString() })),
        audit,
      });
    }
    if (match && method === 'POST' && match[2]) {
      if (!mayReviewOperations(principal)) return refuseScope(res, 'scope operations:review');
      const body = await readBody(req, BODY_LIMIT_BYTES);
      if (!body.ok) return reply(res, 413, { error: 'body_too_large' });
      let json: unknown;
      try {
        json = JSON.parse(body.text);
      } catch {
        return badQuery(res, [{ parameter: 'body', message: 'must be a JSON object' }]);
      }
      const parsed = resolveRequestSchema.safeParse(json);
      if (!parsed.success) {
        return badQuery(
          res,
          parsed.error.issues.map((i) => ({ parameter: i.path.join('.') || 'body', message: i.message })),
        );
      }
      const answer = await resolveOperation(resolveDepsOf(app), principal, match[1]!, parsed.data);
      if (answer.kind === 'not_found') return reply(res, 404, { error: 'not_found' });
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
    }
    return reply(res, 404, { error: 'not_found' });
  }

  return { prefix: OPERATOR_API_PREFIX, scopes: OPERATOR_SCOPES, handle };
}

const readNeed = 'scope operations:review, or operations:read with actor operator';
