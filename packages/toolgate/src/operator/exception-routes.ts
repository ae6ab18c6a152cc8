import type { ExceptionCatalog } from '../exceptions/exception-catalog.ts';
import { exceptionKindOf, parseExceptionGrant } from './exception-request.ts';
import { exceptionKindView, exceptionView } from './exception-views.ts';
import { mayGrantException, mayReadOperations, readableExceptionKinds } from './operator-authority.ts';
import { parseExceptionsFilter } from './operator-query.ts';
import {
  EXCEPTION_PATH,
  type OperatorReplies,
  type OperatorRouter,
  readNeed,
} from './operator-route-context.ts';

/** Exceptions granted by people: the declared kinds, list, grant, revoke; confined to the token's tenant. */
export function exceptionRoutes(routes: OperatorRouter, replies: OperatorReplies): void {
  const { app, reply, refuseScope, badQuery } = replies;
  const { operations, exceptionKinds: kinds } = app;
  routes.on('GET', '/operator/v1/exception-kinds', async ({ res, principal }) => {
    const readable = new Set(readableExceptionKinds(principal, kinds));
    const shown = kinds.all().filter((d) => readable.has(d.kind));
    return reply(res, 200, { kinds: shown.map((d) => exceptionKindView(d, principal.scopes)) });
  });
  routes.on('GET', '/operator/v1/exceptions', async ({ res, url, principal }) => {
    const now = app.clock.now();
    const readable = readableExceptionKinds(principal, kinds);
    if (readable.length === 0 && !mayReadOperations(principal))
      return refuseScope(res, exceptionsNeed(kinds));
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
    if (kinds.grantableBy(principal.scopes).length === 0) return refuseScope(res, exceptionsNeed(kinds));
    const body = await replies.jsonBody(req, res);
    if (!body) return;
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
  routes.on('DELETE', EXCEPTION_PATH, async ({ res, principal }, { id }) => {
    const now = app.clock.now();
    if (kinds.grantableBy(principal.scopes).length === 0) return refuseScope(res, exceptionsNeed(kinds));
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
}

/** What a token needs to touch exceptions at all: some kind's grant scope. */
export function exceptionsNeed(kinds: ExceptionCatalog): string {
  const scopes = kinds.grantScopes();
  return scopes.length === 0
    ? 'a scope that grants exceptions (no module of this gateway declares a kind)'
    : `scope ${scopes.join(' or ')} (the scopes that grant exceptions)`;
}
