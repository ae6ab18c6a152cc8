import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { App } from '../app/create-app.ts';
import type { DemoPrincipal } from '../app/domain-module.ts';
import type { Principal } from '../auth/principal.ts';
import { sendJson } from './http-replies.ts';
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
  /** Mints a token for a demo principal when this server signs its own (dev) tokens. */
  readonly mintDemoToken: ((principal: DemoPrincipal) => Promise<string>) | null;
}

/**
 * The test API of DESIGN.md section 8, for the evaluation harness and other programs' tests:
 * fixtures, fault injection, world simulation, the effects ledger and a world reset. Mounted only
 * with --enable-test-api, and only for principals holding `test:control`.
 */
export function createTestApi(app: App, options: TestApiOptions) {
  return async function serveTestApi(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    principal: Principal,
  ): Promise<void> {
    if (!principal.scopes.has(TEST_CONTROL_SCOPE)) {
      return sendJson(res, 403, {
        error: 'forbidden',
        error_description: `requires scope ${TEST_CONTROL_SCOPE}`,
      });
    }
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'GET /test-api/fixtures':
        return sendJson(res, 200, await fixtures(app, options));
      case 'GET /test-api/faults':
        return sendJson(res, 200, { faults: app.faults.list() });
      case 'DELETE /test-api/faults':
        app.faults.clear(url.searchParams.get('target') ?? undefined);
        return sendJson(res, 200, { cleared: true });
      case 'POST /test-api/faults': {
        const body = await parseJsonBody(req, faultsBodySchema);
        if (!body.ok) return sendJson(res, body.status, { error: 'invalid_body', field_errors: body.errors });
        if ('clear' in body.value) {
          app.faults.clear(body.value.target);
          return sendJson(res, 200, { cleared: true });
        }
        return sendJson(res, 201, { fault: app.faults.arm(body.value) });
      }
      case 'POST /test-api/simulate': {
        const body = await parseJsonBody(req, simulateBodySchema);
        if (!body.ok) return sendJson(res, body.status, { error: 'invalid_body', field_errors: body.errors });
        const { target, action, params } = body.value;
        for (const domain of app.domains) {
          let outcome: Record<string, unknown> | null | undefined;
          try {
            outcome = await domain.simulate?.(target, action, params);
          } catch (error) {
            // A world action that rejects its params changed nothing: the caller's body is at fault.
            if (!(error instanceof z.ZodError)) throw error;
            const field_errors = fieldErrorsOf(error).map((e) => ({ ...e, field: `params.${e.field}` }));
            return sendJson(res, 400, { error: 'invalid_params', field_errors });
          }
          if (outcome) return sendJson(res, 200, { target, action, outcome });
        }
        return sendJson(res, 404, {
          error: 'not_found',
          error_description: `no system ${target} knows ${action}`,
        });
      }
      case 'GET /test-api/effects': {
        const query = validate(effectsQuerySchema, Object.fromEntries(url.searchParams));
        if (!query.ok) return sendJson(res, 400, { error: 'invalid_query', field_errors: query.errors });
        const { target, ref, action } = query.value;
        return sendJson(res, 200, { effects: await app.ledger.list({ system: target, ref, action }) });
      }
      case 'POST /test-api/reset':
        await app.resetWorld();
        return sendJson(res, 200, { reset: true });
      default:
        return sendJson(res, 404, { error: 'not_found', error_description: `no test API route ${route}` });
    }
  };
}

async function fixtures(app: App, options: TestApiOptions): Promise<Record<string, unknown>> {
  const principals = await Promise.all(
    app.principals.map(async (p) => ({
      name: p.name,
      description: p.description,
      claims: { sub: p.subject, tenant: p.tenant, actor: p.actor, scope: p.scopes.join(' ') },
      sub: p.subject,
      tenant: p.tenant,
      actor: p.actor,
      scopes: [...p.scopes],
      token: options.mintDemoToken ? await options.mintDemoToken(p) : null,
    })),
  );
  const merged: Record<string, unknown> = {};
  for (const domain of app.domains) Object.assign(merged, await domain.fixtures());
  return { ...merged, principals };
}
