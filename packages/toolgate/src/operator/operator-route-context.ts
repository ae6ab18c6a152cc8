import type { ServerResponse } from 'node:http';
import type { App } from '../app/create-app.ts';
import { sendJson } from '../transport/http-replies.ts';
import type { HttpRouter, RouteParams } from '../transport/http-router.ts';
import type { RouteRequest } from '../transport/http-server.ts';
import { readBody } from '../transport/read-body.ts';
import { findTenantOperation } from './operation-listing.ts';
import type { QueryProblem } from './operator-query.ts';

const BODY_LIMIT_BYTES = 16 * 1024;

/** One operator route's handler: the request that passed the bearer check, and the ids in its path. */
export type OperatorHandler = (request: RouteRequest, params: RouteParams) => Promise<void>;
export type OperatorRouter = HttpRouter<OperatorHandler>;
export type OperatorPrincipal = RouteRequest['principal'];

export const OPERATION_PATH = '/operator/v1/operations/:id(op_[0-9A-Z]{26})';
export const EXCEPTION_PATH = '/operator/v1/exceptions/:id(exc_[0-9A-Z]{26})';
export const readNeed = 'scope operations:review, or operations:read with actor operator';
export const confirmNeed = `scope operations:confirm, or ${readNeed}`;

/** What every operator route answers with: JSON that is never cached, and the refusals they share. */
export interface OperatorReplies {
  readonly app: App;
  reply(res: ServerResponse, status: number, body: unknown): void;
  refuseScope(res: ServerResponse, needed: string): void;
  badQuery(res: ServerResponse, problems: QueryProblem[]): void;
  /** The request's JSON body, or null once a 413 or 400 was answered for it. */
  jsonBody(req: RouteRequest['req'], res: ServerResponse): Promise<{ readonly json: unknown } | null>;
  /**
   * The tool's own approver scope for a decision on one of its operations, when the token lacks it: the
   * refusal is answered (403) and true returned; an operation not found is left to the decision's 404.
   */
  refusedByToolScope(
    res: ServerResponse,
    principal: OperatorPrincipal,
    operationId: string,
    decision: 'confirmation' | 'review',
  ): Promise<boolean>;
}

export function operatorReplies(app: App): OperatorReplies {
  const reply = (res: ServerResponse, status: number, body: unknown) =>
    sendJson(res, status, body, { 'cache-control': 'no-store' });
  const refuseScope = (res: ServerResponse, needed: string) =>
    reply(res, 403, { error: 'forbidden', message: `This token lacks ${needed}.` });
  const badQuery = (res: ServerResponse, problems: QueryProblem[]) =>
    reply(res, 400, { error: 'invalid_request', problems });
  return {
    app,
    reply,
    refuseScope,
    badQuery,
    async jsonBody(req, res) {
      const body = await readBody(req, BODY_LIMIT_BYTES);
      if (!body.ok) {
        reply(res, 413, { error: 'body_too_large' });
        return null;
      }
      try {
        return { json: JSON.parse(body.text) };
      } catch {
        badQuery(res, [{ parameter: 'body', message: 'must be a JSON object' }]);
        return null;
      }
    },
    async refusedByToolScope(res, principal, operationId, decision) {
      const row = await findTenantOperation(app.db, principal.tenant, operationId);
      const definition = row ? app.registry.get(row.tool, row.contract_version)?.definition : undefined;
      const scope =
        decision === 'confirmation' ? definition?.confirm?.approverScope : definition?.reviewScope;
      if (!scope || principal.scopes.has(scope)) return false;
      refuseScope(res, `scope ${scope} (it decides ${definition!.name}'s ${decision}s)`);
      return true;
    },
  };
}

/** Zod issues as the operator API's problems: the parameter (a body path) and what is wrong with it. */
export function zodProblems(issues: readonly { path: PropertyKey[]; message: string }[]): QueryProblem[] {
  return issues.map((i) => ({ parameter: i.path.map(String).join('.') || 'body', message: i.message }));
}
