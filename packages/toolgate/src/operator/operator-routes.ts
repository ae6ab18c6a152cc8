import type { App } from '../app/create-app.ts';
import { approverScopesOf, FRAMEWORK_OPERATOR_SCOPES } from '../contract/approver-scopes.ts';
import { HttpRouter } from '../transport/http-router.ts';
import type { HttpRouteFamily, RouteRequest } from '../transport/http-server.ts';
import { auditRoutes } from './audit-routes.ts';
import { confirmationRoutes } from './confirmation-routes.ts';
import { exceptionRoutes } from './exception-routes.ts';
import { operationRoutes } from './operation-routes.ts';
import { type OperatorHandler, operatorReplies } from './operator-route-context.ts';
import { principalRoutes } from './principal-routes.ts';

export const OPERATOR_API_PREFIX = '/operator/v1/';

/**
 * The operator API (docs/operator-api.md): JSON over the gateway's HTTP server, bearer tokens verified
 * as on /mcp by the transport, every answer confined to the token's tenant. Reads need
 * `operations:review` or an operator's `operations:read`; a decision needs `operations:review` and is
 * recorded under the token's subject; confirming a parked call needs `operations:confirm` (which may
 * also read the confirmations and the operation it answers), never as the call's requester.
 * An exception kind is granted and revoked with the scope its module declares (docs/exceptions.md); a
 * tool's module may also declare the scope its confirmations and reviews need besides the framework's.
 * Each resource's routes are in a file of their own.
 */
export function operatorRoutes(app: App): HttpRouteFamily {
  const replies = operatorReplies(app);
  const routes = new HttpRouter<OperatorHandler>();
  for (const resource of [principalRoutes, operationRoutes, auditRoutes, confirmationRoutes, exceptionRoutes])
    resource(routes, replies);

  async function handle(request: RouteRequest): Promise<void> {
    const route = routes.match(request.req.method ?? 'GET', request.url.pathname);
    if (!route) return replies.reply(request.res, 404, { error: 'not_found' });
    return route.handler(request, route.params);
  }

  const scopes = [
    ...FRAMEWORK_OPERATOR_SCOPES,
    ...approverScopesOf(
      app.exceptionKinds.all(),
      app.registry.all().map((t) => t.definition),
    ).map((a) => a.scope),
  ];
  return { prefix: OPERATOR_API_PREFIX, scopes, handle };
}
