import type { ServerResponse } from 'node:http';
import type { App } from '../app/create-app.ts';
import { approverScopesOf, FRAMEWORK_OPERATOR_SCOPES } from '../contract/approver-scopes.ts';
import { recordFromRow } from '../operations/operation-record.ts';
import { sendJson } from '../transport/http-replies.ts';
import { HttpRouter, type RouteParams } from '../transport/http-router.ts';
import type { HttpRouteFamily, RouteRequest } from '../transport/http-server.ts';
import { readBody } from '../transport/read-body.ts';
import { parseActivityWindow, readActivityHistory } from './activity-history.ts';
import {
  answerConfirmation,
  confirmationAnswerSchema,
  confirmationQuestionView,
} from './answer-confirmation.ts';
import { exceptionKindOf, parseExceptionGrant } from './exception-request.ts';
import { exceptionKindView, exceptionView } from './exception-views.ts';
import { findTenantOperation, listOperations, operationView } from './operation-listing.ts';
import {
  mayConfirmOperations,
  mayGrantException,
  mayReadOperations,
  mayReviewOperations,
  operatorAuthority,
  readableExceptionKinds,
} from './operator-authority.ts';
import {
  encodeCursor,
  MAX_PAGE_SIZE,
  parseAuditFilter,
  parseExceptionsFilter,
  parseOperationsFilter,
  type QueryProblem,
} from './operator-query.ts';
import { resolveDepsOf, resolveOperation, resolveRequestSchema } from './resolve-operation.ts';
import { toolCatalogView } from './tool-catalog-view.ts';

export const OPERATOR_API_PREFIX = '/operator/v1/';
const BODY_LIMIT_BYTES = 16 * 1024;
const OPERATION = '/operator/v1/operations/:id(op_[0-9A-Z]{26})';
const EXCEPTION = '/operator/v1/exceptions/:id(exc_[0-9A-Z]{26})';

/** One operator route's handler: the request that passed the bearer check, and the ids in its path. */
type OperatorHandler = (request: RouteRequest, params: RouteParams) => Promise<void>;

/**
 * The operator API (docs/operator-api.md): JSON over the gateway's HTTP server, bearer tokens verified
 * as on /mcp by the transport, every answer confined to the token's tenant. Reads need
 * `operations:review` or an operator's `operations:read`; a decision needs `operations:review` and is
 * recorded under the token's subject; confirming a parked call needs `operations:confirm` (which may
 * also read the confirmations and the operation it answers), never as the call's requester.
 * An exception kind is granted and revoked with the scope its module declares (docs/exceptions.md); a
 * tool's module may also declare the scope its confirmations and reviews need besides the framework's.
 */
export function operatorRoutes(app: App): HttpRouteFamily {
  const { db, operations, registry, metrics, exceptionKinds: kinds } = app;
  const reply = (res: ServerResponse, status: number, body: unknown) =>
    sendJson(res, status, body, { 'cache-control': 'no-store' });
  const refuseScope = (res: ServerResponse, needed: string) =>
    reply(res, 403, { error: 'forbidden', message: `This token lacks ${needed}.` });
  const badQuery = (res: ServerResponse, problems: QueryProblem[]) =>
    reply(res, 400, { error: 'invalid_request', problems });

  const routes = new HttpRouter<OperatorHandler>();
  // Who the token names and what it may do here: the console's landing page asks only for what it may read.
  routes.on('GET', '/operator/v1/me', async ({ res, principal }) => {
    const may = operatorAuthority(principal, kinds);
    if (!may.read_operations && !may.confirm && may.grant_exceptions.length === 0) {
      return refuseScope(res, `${confirmNeed}, or ${exceptionsNeed()}`);
    }
    const { subject, tenant, actor } = principal;
    return reply(res, 200, { subject, tenant, actor, may });
  });
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
  routes.on('GET', '/operator/v1/confirmations', async ({ res, principal }) => {
    if (!mayConfirmOperations(principal) && !mayReadOperations(principal)) {
      return refuseScope(res, confirmNeed);
    }
    const parked = await operations.confirmations.pending(principal.tenant, MAX_PAGE_SIZE);
    return reply(res, 200, { confirmations: parked.map(confirmationQuestionView) });
  });
  routes.on('GET', '/operator/v1/activity', async ({ res, url, principal }) => {
    if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
    const window = parseActivityWindow(url.searchParams, Date.now());
    if (!window.ok) return badQuery(res, window.problems);
    return reply(res, 200, await readActivityHistory(db, principal.tenant, window.value));
  });
  routes.on('GET', '/operator/v1/tools', async ({ res, principal }) => {
    if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
    return reply(res, 200, { tools: await toolCatalogView(registry, metrics) });
  });
  routes.on('GET', OPERATION, async ({ res, principal }, { id }) => {
    const readsPlane = mayReadOperations(principal);
    if (!readsPlane && !mayConfirmOperations(principal)) return refuseScope(res, readNeed);
    const found = await findTenantOperation(db, principal.tenant, id!);
    if (!found) return reply(res, 404, { error: 'not_found' });
    // An approver who only confirms reads the operations it was asked about, nothing else of the tenant.
    if (!readsPlane && !(await askedOf(principal, found.id, found.tool, found.contract_version)))
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
  routes.on('POST', `${OPERATION}/confirmation`, async ({ req, res, principal }, { id }) => {
    if (!mayConfirmOperations(principal)) return refuseScope(res, 'scope operations:confirm');
    if (await refusedByToolScope(res, principal, id!, 'confirmation')) return;
    const body = await readJson(req);
    if (!body.ok)
      return body.status === 413
        ? reply(res, 413, { error: 'body_too_large' })
        : badQuery(res, body.problems);
    const parsed = confirmationAnswerSchema.safeParse(body.json);
    if (!parsed.success) return badQuery(res, zodProblems(parsed.error.issues));
    const answer = await answerConfirmation(app, principal, id!, parsed.data);
    switch (answer.kind) {
      case 'not_found':
        return reply(res, 404, { error: 'not_found' });
      case 'four_eyes':
        return reply(res, 403, {
          error: 'four_eyes',
          message: 'The requester of a call cannot confirm or refuse it; another approver must.',
          requester: answer.requester,
        });
      case 'invalid':
        return badQuery(res, answer.problems);
      case 'not_served':
        return reply(res, 409, {
          error: 'tool_not_served',
          message: `This gateway does not serve ${answer.tool}; answer it on one that does.`,
        });
      case 'not_pending':
        return reply(res, 409, {
          error: 'not_awaiting_confirmation',
          message: `This operation is ${answer.status}; its confirmation was ${answer.confirmation.state}${answer.confirmation.answered_by ? ` by ${answer.confirmation.answered_by}` : ''}.`,
          status: answer.status,
          confirmation: answer.confirmation,
        });
      case 'mismatch':
        return reply(res, 409, {
          error: 'confirmation_mismatch',
          message:
            'The request would no longer do what was shown; nothing ran. A retry of the call asks again.',
          confirmation: answer.confirmation,
          outcome: answer.outcome,
        });
      case 'cannot_check':
        return reply(res, 503, {
          error: 'cannot_check',
          message: `${answer.message} Nothing changed; answer again later.`,
        });
      case 'answered':
        return reply(res, 200, { confirmation: answer.confirmation, outcome: answer.outcome });
    }
  });
  routes.on('POST', `${OPERATION}/resolve`, async ({ req, res, principal }, { id }) => {
    if (!mayReviewOperations(principal)) return refuseScope(res, 'scope operations:review');
    if (await refusedByToolScope(res, principal, id!, 'review')) return;
    const body = await readJson(req);
    if (!body.ok)
      return body.status === 413
        ? reply(res, 413, { error: 'body_too_large' })
        : badQuery(res, body.problems);
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
  // Exceptions granted by people: the declared kinds, list, grant, revoke; confined to the token's tenant.
  routes.on('GET', '/operator/v1/exception-kinds', async ({ res, principal }) => {
    const readable = new Set(readableExceptionKinds(principal, kinds));
    const shown = kinds.all().filter((d) => readable.has(d.kind));
    return reply(res, 200, { kinds: shown.map((d) => exceptionKindView(d, principal.scopes)) });
  });
  routes.on('GET', '/operator/v1/exceptions', async ({ res, url, principal }) => {
    const now = app.clock.now();
    const readable = readableExceptionKinds(principal, kinds);
    if (readable.length === 0 && !mayReadOperations(principal)) return refuseScope(res, exceptionsNeed());
    const filter = parseExceptionsFilter(url.searchParams, kinds.kinds());
    if (!filter.ok) return badQuery(res, filter.problems);
    const asked = filter.value.kind;
    if (asked !== undefined && !readable.includes(asked)) {
      return refuseScope(res, `scope ${kinds.get(asked)!.grantScope}, or ${readNeed}`);
    }
    const rows = await operations.exceptions.list(principal.tenant, {
      kinds: asked === undefined ? readable : [asked],
      limit: filter.value.limit,
      ...(filter.value.active ? { activeAt: now } : {}),
    });
    return reply(res, 200, { exceptions: rows.map((e) => exceptionView(e, now)) });
  });
  routes.on('POST', '/operator/v1/exceptions', async ({ req, res, principal }) => {
    const now = app.clock.now();
    if (kinds.grantableBy(principal.scopes).length === 0) return refuseScope(res, exceptionsNeed());
    const body = await readJson(req);
    if (!body.ok)
      return body.status === 413
        ? reply(res, 413, { error: 'body_too_large' })
        : badQuery(res, body.problems);
    const kind = exceptionKindOf(body.json, kinds);
    if (!kind.ok) return badQuery(res, kind.problems);
    const definition = kind.value;
    if (!mayGrantException(principal, definition)) {
      return refuseScope(res, `scope ${definition.grantScope} (it grants ${definition.kind} exceptions)`);
    }
    const grant = parseExceptionGrant(body.json as Record<string, unknown>, definition, now);
    if (!grant.ok) return badQuery(res, grant.problems);
    const target = definition.checkTarget
      ? await definition.checkTarget(principal.tenant, grant.value.target)
      : ({ kind: 'known' } as const);
    if (target.kind === 'unknown') return reply(res, 404, { error: 'not_found' });
    if (target.kind === 'invalid') {
      return badQuery(res, [{ parameter: target.field, message: target.message }]);
    }
    const exception = await operations.exceptions.grant(principal, grant.value);
    return reply(res, 201, exceptionView(exception, now));
  });
  routes.on('DELETE', EXCEPTION, async ({ res, principal }, { id }) => {
    const now = app.clock.now();
    if (kinds.grantableBy(principal.scopes).length === 0) return refuseScope(res, exceptionsNeed());
    const found = await operations.exceptions.find(principal.tenant, id!);
    if (!found) return reply(res, 404, { error: 'not_found' });
    const definition = kinds.get(found.kind);
    // A kind no module serves any more keeps its rows; only a scope that granted it may revoke one.
    if (!definition || !mayGrantException(principal, definition)) {
      const scope = definition?.grantScope ?? `that grants ${found.kind} (no module here declares it)`;
      return refuseScope(res, `scope ${scope}`);
    }
    const answer = await operations.exceptions.revoke(principal, id!);
    if (answer.kind === 'not_found') return reply(res, 404, { error: 'not_found' });
    if (answer.kind === 'already_revoked') {
      return reply(res, 409, {
        error: 'already_revoked',
        message: `This exception was already revoked by ${answer.exception.revoked_by}.`,
        exception: exceptionView(answer.exception, now),
      });
    }
    return reply(res, 200, exceptionView(answer.exception, now));
  });

  /** What a token needs to touch exceptions at all: some kind's grant scope. */
  function exceptionsNeed(): string {
    const scopes = kinds.grantScopes();
    return scopes.length === 0
      ? 'a scope that grants exceptions (no module of this gateway declares a kind)'
      : `scope ${scopes.join(' or ')} (the scopes that grant exceptions)`;
  }

  /**
   * The tool's own approver scope for a decision on one of its operations, when the token lacks it: the
   * refusal is answered (403) and true returned; an operation not found is left to the decision's 404.
   */
  async function refusedByToolScope(
    res: ServerResponse,
    principal: RouteRequest['principal'],
    operationId: string,
    decision: 'confirmation' | 'review',
  ): Promise<boolean> {
    const row = await findTenantOperation(db, principal.tenant, operationId);
    const definition = row ? registry.get(row.tool, row.contract_version)?.definition : undefined;
    const scope = decision === 'confirmation' ? definition?.confirm?.approverScope : definition?.reviewScope;
    if (!scope || principal.scopes.has(scope)) return false;
    refuseScope(res, `scope ${scope} (it decides ${definition!.name}'s ${decision}s)`);
    return true;
  }

  /** The operation parked a question this approver may answer (it holds the tool's approver scope). */
  async function askedOf(
    principal: RouteRequest['principal'],
    operationId: string,
    tool: string,
    version: string,
  ) {
    if (!(await operations.confirmations.find(principal.tenant, operationId))) return false;
    // The version that reserved the operation asked the question, and names its approver scope.
    const definition = registry.get(tool, version)?.definition;
    return mayConfirmOperations(principal, definition?.confirm?.approverScope);
  }

  async function handle(request: RouteRequest): Promise<void> {
    const route = routes.match(request.req.method ?? 'GET', request.url.pathname);
    if (!route) return reply(request.res, 404, { error: 'not_found' });
    return route.handler(request, route.params);
  }

  const scopes = [
    ...FRAMEWORK_OPERATOR_SCOPES,
    ...approverScopesOf(
      kinds.all(),
      registry.all().map((t) => t.definition),
    ).map((a) => a.scope),
  ];
  return { prefix: OPERATOR_API_PREFIX, scopes, handle };
}

const readNeed = 'scope operations:review, or operations:read with actor operator';
const confirmNeed = `scope operations:confirm, or ${readNeed}`;

type JsonBody =
  | { readonly ok: true; readonly json: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly problems: QueryProblem[] };

async function readJson(req: RouteRequest['req']): Promise<JsonBody> {
  const body = await readBody(req, BODY_LIMIT_BYTES);
  if (!body.ok) return { ok: false, status: 413, problems: [] };
  try {
    return { ok: true, json: JSON.parse(body.text) };
  } catch {
    return { ok: false, status: 400, problems: [{ parameter: 'body', message: 'must be a JSON object' }] };
  }
}

function zodProblems(issues: readonly { path: PropertyKey[]; message: string }[]): QueryProblem[] {
  return issues.map((i) => ({ parameter: i.path.map(String).join('.') || 'body', message: i.message }));
}
