import {
  type App,
  type HttpRouteFamily,
  HttpRouter,
  type KeySource,
  loadOrCreateDevKeys,
  mintToken,
  type RouteRequest,
  sendJson,
} from 'toolgate/server';
import { z } from 'zod';
import { type AppSimulation, simulationOf } from '../app-simulation.ts';
import { type DemoPrincipal, demoTokenSubject } from '../simulation-hooks.ts';
import { resetSimulation, simulationWorld } from '../simulation-world.ts';
import {
  effectsQuerySchema,
  faultsBodySchema,
  fieldErrorsOf,
  parseJsonBody,
  simulateBodySchema,
  validate,
} from './test-api-bodies.ts';

export const TEST_CONTROL_SCOPE = 'test:control';

export interface TestApiOptions {
  /** Where the server's verification keys come from; with the dev key, fixtures carry ready demo tokens. */
  readonly keys: KeySource;
}

type MintDemoToken = ((principal: DemoPrincipal, audience: string) => Promise<string>) | null;

/**
 * The test API of DESIGN.md section 8, for the evaluation harness and other programs' tests:
 * fixtures, fault injection, world simulation, the effects ledger and a world reset, over the modules
 * of `app` that bring simulation hooks. Mounted only with --enable-test-api, and only answered for
 * principals holding `test:control`.
 */
export function testApiRoutes(app: App, options: TestApiOptions): HttpRouteFamily {
  const world = simulationWorld(app.db);
  const simulation = simulationOf(app);
  let minter: Promise<MintDemoToken> | null = null;
  const mintDemoToken = () => {
    minter ??= demoTokenMinter(options.keys);
    return minter;
  };
  const routes = new HttpRouter<(request: RouteRequest) => Promise<void>>()
    .on('GET', '/test-api/fixtures', async ({ res, resource }) =>
      sendJson(res, 200, await fixtures(simulation, await mintDemoToken(), resource)),
    )
    .on('GET', '/test-api/faults', async ({ res }) => sendJson(res, 200, { faults: world.faults.list() }))
    .on('DELETE', '/test-api/faults', async ({ res, url }) => {
      world.faults.clear(url.searchParams.get('target') ?? undefined);
      return sendJson(res, 200, { cleared: true });
    })
    .on('POST', '/test-api/faults', async ({ req, res }) => {
      const body = await parseJsonBody(req, faultsBodySchema);
      if (!body.ok) return sendJson(res, body.status, { error: 'invalid_body', field_errors: body.errors });
      if ('clear' in body.value) {
        world.faults.clear(body.value.target);
        return sendJson(res, 200, { cleared: true });
      }
      return sendJson(res, 201, { fault: world.faults.arm(body.value) });
    })
    .on('POST', '/test-api/simulate', async ({ req, res }) => {
      const body = await parseJsonBody(req, simulateBodySchema);
      if (!body.ok) return sendJson(res, body.status, { error: 'invalid_body', field_errors: body.errors });
      const { target, action, params } = body.value;
      let outcome: Record<string, unknown> | null;
      try {
        outcome = await simulation.simulate(target, action, params);
      } catch (error) {
        // A world action that rejects its params changed nothing: the caller's body is at fault.
        if (!(error instanceof z.ZodError)) throw error;
        const field_errors = fieldErrorsOf(error).map((e) => ({ ...e, field: `params.${e.field}` }));
        return sendJson(res, 400, { error: 'invalid_params', field_errors });
      }
      if (outcome) return sendJson(res, 200, { target, action, outcome });
      return sendJson(res, 404, {
        error: 'not_found',
        error_description: `no system ${target} knows ${action}`,
      });
    })
    .on('GET', '/test-api/effects', async ({ res, url }) => {
      const query = validate(effectsQuerySchema, Object.fromEntries(url.searchParams));
      if (!query.ok) return sendJson(res, 400, { error: 'invalid_query', field_errors: query.errors });
      const { target, ref, action } = query.value;
      return sendJson(res, 200, { effects: await world.ledger.list({ system: target, ref, action }) });
    })
    .on('POST', '/test-api/reset', async ({ res }) => {
      await resetSimulation(app);
      return sendJson(res, 200, { reset: true });
    });
  const handle = async ({ req, res, url, principal, resource }: RouteRequest): Promise<void> => {
    if (!principal.scopes.has(TEST_CONTROL_SCOPE)) {
      return sendJson(res, 403, {
        error: 'forbidden',
        error_description: `requires scope ${TEST_CONTROL_SCOPE}`,
      });
    }
    const route = routes.match(req.method ?? 'GET', url.pathname);
    if (!route) {
      return sendJson(res, 404, {
        error: 'not_found',
        error_description: `no test API route ${req.method} ${url.pathname}`,
      });
    }
    return route.handler({ req, res, url, principal, resource });
  };
  return { prefix: '/test-api/', scopes: [TEST_CONTROL_SCOPE], handle };
}

async function demoTokenMinter(keys: KeySource): Promise<MintDemoToken> {
  if (keys.kind !== 'dev') return null;
  const devKeys = await loadOrCreateDevKeys(keys.dataDir);
  return (p, audience) => mintToken(devKeys, demoTokenSubject(p), { audience });
}

async function fixtures(
  simulation: AppSimulation,
  mint: MintDemoToken,
  audience: string,
): Promise<Record<string, unknown>> {
  const principals = await Promise.all(
    simulation.principals.map(async (p) => ({
      name: p.name,
      description: p.description,
      claims: {
        sub: p.subject,
        tenant: p.tenant,
        actor: p.actor,
        scope: p.scopes.join(' '),
        groups: [...(p.groups ?? [])],
      },
      sub: p.subject,
      tenant: p.tenant,
      actor: p.actor,
      scopes: [...p.scopes],
      groups: [...(p.groups ?? [])],
      token: mint ? await mint(p, audience) : null,
    })),
  );
  return { ...(await simulation.fixtures()), principals };
}
