import { exceptionsNeed } from './exception-routes.ts';
import { mayReadOperations, operatorAuthority } from './operator-authority.ts';
import {
  confirmNeed,
  type OperatorReplies,
  type OperatorRouter,
  readNeed,
} from './operator-route-context.ts';
import { toolCatalogView } from './tool-catalog-view.ts';

/** Who the token names and what it may do, and the tools this gateway serves. */
export function principalRoutes(routes: OperatorRouter, replies: OperatorReplies): void {
  const { app, reply, refuseScope } = replies;
  // The console's landing page asks only for what the token may read.
  routes.on('GET', '/operator/v1/me', async ({ res, principal }) => {
    const may = operatorAuthority(principal, app.exceptionKinds);
    if (!may.read_operations && !may.confirm && may.grant_exceptions.length === 0) {
      return refuseScope(res, `${confirmNeed}, or ${exceptionsNeed(app.exceptionKinds)}`);
    }
    const { subject, tenant, actor } = principal;
    return reply(res, 200, { subject, tenant, actor, may });
  });
  routes.on('GET', '/operator/v1/tools', async ({ res, principal }) => {
    if (!mayReadOperations(principal)) return refuseScope(res, readNeed);
    return reply(res, 200, { tools: await toolCatalogView(app.registry, app.metrics) });
  });
}
