import {
  backendOutcome,
  createHttpBackend,
  defineErrorCodes,
  defineTool,
  idempotencyKeySchema,
  outcome,
} from 'toolgate';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type BackendServer, refusedUrl, startBackendServer } from '../backend/backend-server.ts';
import { createScratchDatabase, postgresAvailable, type ScratchDatabase } from '../support/pg.ts';

const codes = defineErrorCodes({
  ACCOUNT_CLOSED: {
    category: 'state',
    retryable: false,
    description: 'The account is closed; nothing was sent.',
  },
});
const payer = { sub: 'ada', tenant: 'acme', actor: 'customer' as const, scopes: ['payments:write'] };
const STORES = ['sqlite', ...((await postgresAvailable()) ? ['postgres'] : [])] as const;

/**
 * The HTTP backend kit tells the call what its service answered; the call's audit entry records the
 * worst answer of its requests (a read that succeeded does not hide a write that was refused).
 */
describe.each(STORES)('the dependency result of a backend call (%s)', (store) => {
  let database: ScratchDatabase | undefined;
  let service: BackendServer;
  let gateway: TestGateway;
  let key = 0;

  beforeAll(async () => {
    service = await startBackendServer();
    const payments = createHttpBackend({ baseUrl: service.url, dedupesByKey: true, retry: { attempts: 1 } });
    const paymentsSend = defineTool({
      name: 'payments_send',
      title: 'Send a payment',
      description: 'Sends one payment after reading the account. Do not use it to read payments.',
      kind: 'write',
      mutation: 'create',
      version: '1.0.0',
      input: z.strictObject({ idempotency_key: idempotencyKeySchema }),
      output: z.strictObject({ sent: z.boolean() }),
      errors: [codes.ACCOUNT_CLOSED],
      scopes: ['payments:write'],
      timeoutMs: 5_000,
      examples: [],
      async handler(_input, ctx) {
        const account = await payments.call(ctx, { method: 'GET', path: '/account', response: z.object({}) });
        if (account.kind !== 'ok') return backendOutcome(account, () => outcome.completed({ sent: false }));
        const sent = await payments.call(ctx, {
          method: 'POST',
          path: '/payments',
          body: {},
          response: z.object({}),
          rejections: { 409: { code: 'ACCOUNT_CLOSED', message: 'The account is closed.' } },
        });
        return backendOutcome(sent, () => outcome.completed({ sent: true }));
      },
      reconcile: async () => ({ settled: false, note: 'the service has no status query' }),
    });
    database = store === 'postgres' ? await createScratchDatabase() : undefined;
    gateway = await startTestGateway({
      tools: [paymentsSend],
      ...(database && { databaseUrl: database.url }),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await service?.close();
    await database?.drop();
  });

  async function send() {
    key += 1;
    const answer = await gateway.callTool(payer, 'payments_send', {
      idempotency_key: `payments-send-key-${String(key).padStart(4, '0')}`,
    });
    const rows = await gateway.app.db.query<{ detail: string }>(
      'SELECT detail FROM audit_log WHERE action = ? AND operation_id = ?',
      ['payments_send', answer.operation_id],
    );
    expect(rows).toHaveLength(1);
    return { answer, detail: JSON.parse(rows[0]!.detail) as Record<string, unknown> };
  }

  test('every request answered: ok', async () => {
    service.script({ status: 200, body: {} }, { status: 201, body: {} });
    const { answer, detail } = await send();
    expect(answer.status).toBe('completed');
    expect(detail.dependency_result).toBe('ok');
  });

  test('the read answered, the write was refused: refused', async () => {
    service.script({ status: 200, body: {} }, { status: 409, body: {} });
    const { answer, detail } = await send();
    expect(answer.code).toBe('ACCOUNT_CLOSED');
    expect(detail.dependency_result).toBe('refused');
  });

  test('an answer that breaks its schema: invalid_answer', async () => {
    service.script({ status: 200, raw: '[1, 2' });
    const { detail } = await send();
    expect(detail.dependency_result).toBe('invalid_answer');
  });

  test('no answer the write may have reached: unknown', async () => {
    service.script({ status: 200, body: {} }, { reset: true });
    const { answer, detail } = await send();
    expect(answer.status).toBe('outcome_unknown');
    expect(detail.dependency_result).toBe('unknown');
  });
});

describe('what the backend kit reports for a read it could not complete', () => {
  const item = { method: 'GET', path: '/items/1', response: z.object({}) } as const;
  const reported = () => {
    const results: string[] = [];
    const ctx = {
      signal: new AbortController().signal,
      annotate: (facts: { dependency_result: string }) => results.push(facts.dependency_result),
    };
    return { ctx, results };
  };

  test('an attempt that got no answer in time: timeout', async () => {
    const service = await startBackendServer();
    try {
      service.script({ hang: true });
      const backend = createHttpBackend({
        baseUrl: service.url,
        attemptTimeoutMs: 50,
        retry: { attempts: 1 },
      });
      const { ctx, results } = reported();
      expect((await backend.call(ctx, item)).kind).toBe('unavailable');
      expect(results).toEqual(['timeout']);
    } finally {
      await service.close();
    }
  });

  test('a service nobody listens for: unavailable', async () => {
    const backend = createHttpBackend({ baseUrl: (await refusedUrl()).url, retry: { attempts: 1 } });
    const { ctx, results } = reported();
    expect((await backend.call(ctx, item)).kind).toBe('unavailable');
    expect(results).toEqual(['unavailable']);
  });
});
