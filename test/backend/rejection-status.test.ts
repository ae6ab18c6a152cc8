import {
  backendOutcome,
  createHttpBackend,
  defineErrorCodes,
  defineTool,
  idempotencyKeySchema,
  outcome,
  type RejectionMapping,
} from 'toolgate';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createScratchDatabase, postgresAvailable, type ScratchDatabase } from '../support/pg.ts';
import { type BackendServer, startBackendServer } from './backend-server.ts';

const codes = defineErrorCodes({
  AMOUNT_REFUSED: {
    category: 'validation',
    retryable: false,
    description: 'The payments service refused the amount; nothing was sent.',
  },
  BALANCE_TOO_LOW: {
    category: 'state',
    retryable: false,
    description: 'The account holds less than the amount; nothing was sent.',
  },
  SPLIT_SUGGESTED: {
    category: 'confirmation',
    retryable: false,
    description: 'The service suggests sending the amount in two parts; ask the user first.',
  },
});

const payer = { sub: 'ada', tenant: 'acme', actor: 'customer' as const, scopes: ['payments:write'] };

/**
 * A mapping's `status` is honoured where the code's category allows it; a status the code cannot have
 * is refused at the answer, and the operation records the refusal the service gave: nothing changed.
 */
const STORES = ['sqlite', ...((await postgresAvailable()) ? ['postgres'] : [])] as const;

describe.each(STORES)("a rejection mapping's status against its code's category (%s)", (store) => {
  let database: ScratchDatabase | undefined;
  let service: BackendServer;
  let gateway: TestGateway;
  let mapping: RejectionMapping;
  let key = 0;
  const send = async (declared: RejectionMapping) => {
    mapping = declared;
    service.script({ status: 409, body: {} });
    key += 1;
    const answer = await gateway.callTool(payer, 'payments_send', {
      idempotency_key: `payments-send-key-${String(key).padStart(4, '0')}`,
    });
    return { answer, record: await gateway.operation(answer.operation_id!) };
  };

  beforeAll(async () => {
    service = await startBackendServer();
    const payments = createHttpBackend({ baseUrl: service.url, dedupesByKey: true });
    const paymentsSend = defineTool({
      name: 'payments_send',
      title: 'Send a payment',
      description: 'Sends one payment. Do not use it to read payments; nothing here reads them.',
      kind: 'write',
      mutation: 'create',
      version: '1.0.0',
      input: z.strictObject({ idempotency_key: idempotencyKeySchema }),
      output: z.strictObject({ sent: z.boolean() }),
      errors: [codes.AMOUNT_REFUSED, codes.BALANCE_TOO_LOW, codes.SPLIT_SUGGESTED],
      scopes: ['payments:write'],
      timeoutMs: 5_000,
      examples: [],
      async handler(_input, ctx) {
        const result = await payments.call(ctx, {
          method: 'POST',
          path: '/payments',
          body: {},
          response: z.object({}),
          rejections: { 409: mapping },
        });
        return backendOutcome(result, () => outcome.completed({ sent: true }));
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

  test('a confirmation code mapped requires_confirmation is answered and recorded as such', async () => {
    const { answer, record } = await send({
      code: 'SPLIT_SUGGESTED',
      message: 'Send it in two parts?',
      status: 'requires_confirmation',
    });
    expect(answer).toMatchObject({ status: 'requires_confirmation', code: 'SPLIT_SUGGESTED' });
    expect(record?.status).toBe('requires_confirmation');
  });

  test("between rejected and failed, the code's category decides: a validation code is failed", async () => {
    const { answer, record } = await send({
      code: 'AMOUNT_REFUSED',
      message: 'Too much.',
      status: 'rejected',
    });
    expect(answer).toMatchObject({ status: 'failed', code: 'AMOUNT_REFUSED', message: 'Too much.' });
    expect(record?.status).toBe('failed');
  });

  test('requires_confirmation for a code answered rejected is refused, and the operation is failed, not unknown', async () => {
    const { answer, record } = await send({
      code: 'BALANCE_TOO_LOW',
      message: 'Send less?',
      status: 'requires_confirmation',
    });
    expect(answer).toMatchObject({ status: 'failed', code: 'OUTPUT_CONTRACT_VIOLATION', retryable: false });
    expect(answer.message).toContain('nothing was changed');
    expect(record?.status).toBe('failed');
    expect(service.requests).toHaveLength(3);
  });

  test('rejected for a code answered requires_confirmation is refused the same way', async () => {
    const { answer, record } = await send({ code: 'SPLIT_SUGGESTED', message: 'No.', status: 'rejected' });
    expect(answer).toMatchObject({ status: 'failed', code: 'OUTPUT_CONTRACT_VIOLATION' });
    expect(record?.status).toBe('failed');
  });
});
