import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { BillingService, Caller } from './billing-service.ts';
import { creditNoteRequestOf, refundRequestOf } from './invoice-rules.ts';
import type { KeyedAnswer } from './keyed-write.ts';

export interface BillingRoutesOptions {
  /** Test-only: wait this long after a write commits before answering, so a test can kill us mid-request. */
  readonly pauseAfterCommitMs: number;
  /**
   * Evaluation instances only: serve `POST /admin/reset`, which puts the whole database back to the
   * seed so every trial of `toolgate eval` starts from the same invoices. Off in a real deployment.
   */
  readonly resetToSeed?: () => void;
}

type Env = { Variables: { caller: Caller } };

const KEY_PATTERN = /^[A-Za-z0-9._:-]{1,255}$/;
const IDENTITY_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The service's HTTP surface. Every route is scoped by the `tenant` and `customer` query parameters
 * the gateway sends for its verified principal (see the README on service credentials); every write
 * needs an Idempotency-Key and answers the stored first answer on a repeat.
 */
export function billingRoutes(service: BillingService, options: BillingRoutesOptions): Hono<Env> {
  const app = new Hono<Env>();

  app.get('/healthz', (c) => c.json({ ok: true }));

  const { resetToSeed } = options;
  if (resetToSeed) {
    // Every tenant at once, so it sits before the tenant scoping: it is the evaluation's, not a caller's.
    app.post('/admin/reset', (c) => {
      resetToSeed();
      return c.json({ reset: true });
    });
  }

  app.use('*', async (c, next) => {
    const tenant = c.req.query('tenant') ?? '';
    const customer = c.req.query('customer') ?? '';
    if (!IDENTITY_PATTERN.test(tenant)) return c.json({ error: 'tenant_required' }, 401);
    c.set('caller', { tenant, customer });
    await next();
  });

  app.get('/invoices/:id', (c) => {
    const caller = c.get('caller');
    const invoice = service.reads.invoiceFor(caller.tenant, caller.customer, c.req.param('id'));
    if (!invoice) return c.json({ error: 'invoice_not_found' }, 404);
    return c.json(service.reads.invoiceView(invoice));
  });

  app.post('/invoices/:id/credit-notes', async (c) => {
    const key = c.req.header('idempotency-key');
    if (!key || !KEY_PATTERN.test(key)) return c.json({ error: 'idempotency_key_required' }, 400);
    const request = creditNoteRequestOf(await c.req.json().catch(() => null));
    if (!request) return c.json({ error: 'invalid_request' }, 400);
    const answer = service.issueCreditNote(c.get('caller'), c.req.param('id'), key, request);
    return reply(c, answer, options);
  });

  app.post('/invoices/:id/refund-requests', async (c) => {
    const key = c.req.header('idempotency-key');
    if (!key || !KEY_PATTERN.test(key)) return c.json({ error: 'idempotency_key_required' }, 400);
    const request = refundRequestOf(await c.req.json().catch(() => null));
    if (!request) return c.json({ error: 'invalid_request' }, 400);
    const answer = service.requestRefund(c.get('caller'), c.req.param('id'), key, request);
    return reply(c, answer, options);
  });

  app.get('/refund-requests/:id', (c) => {
    const caller = c.get('caller');
    const refund = service.reads.refundRequest(caller.tenant, c.req.param('id'));
    // A refund on someone else's invoice answers exactly like a missing one.
    const invoice = refund && service.reads.invoiceFor(caller.tenant, caller.customer, refund.invoice_id);
    if (!refund || !invoice) return c.json({ error: 'refund_request_not_found' }, 404);
    return c.json(refund);
  });

  // The finance team's world action; a real deployment puts it behind its own staff authentication.
  app.post('/admin/refund-requests/:id/decide', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { decision?: unknown } | null;
    const decision = body?.decision;
    if (decision !== 'approved' && decision !== 'declined') return c.json({ error: 'invalid_request' }, 400);
    const answer = service.decideRefund(c.get('caller').tenant, c.req.param('id'), decision);
    return c.json(answer.body, answer.status);
  });

  app.get('/operations/:key', (c) => {
    const known = service.lookupOperation(c.get('caller').tenant, c.req.param('key'));
    if (known.state !== 'applied') return c.json({ error: 'unknown_key' }, 404);
    return c.json({ status: 'applied', kind: known.kind, response: known.answer.body });
  });

  app.notFound((c) => c.json({ error: 'no_such_route' }, 404));
  // Unknown failures answer a bare 500: no stack or SQL leaves the service.
  app.onError((error, c) => {
    process.stderr.write(`billing: ${error.stack ?? error.message}\n`);
    return c.json({ error: 'internal' }, 500);
  });
  return app;
}

async function reply(c: Context<Env>, answer: KeyedAnswer, options: BillingRoutesOptions) {
  if (!answer.replayed && answer.status < 300 && options.pauseAfterCommitMs > 0) {
    await sleep(options.pauseAfterCommitMs);
  }
  if (answer.replayed) c.header('Idempotent-Replayed', 'true');
  return c.json(answer.body, answer.status as ContentfulStatusCode);
}
