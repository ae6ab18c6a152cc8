import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startBackendServer } from '../../../../test/backend/backend-server.ts';
import { noExceptions } from '../../../../test/support/no-exceptions.ts';
import { backendOutcome } from '../../src/backend/backend-outcome.ts';
import { createHttpBackend } from '../../src/backend/http-backend.ts';
import type { OperationHandle, OperationSnapshot, ToolContext } from '../../src/contract/define-tool.ts';
import { defineTool } from '../../src/contract/define-tool.ts';
import { defineErrorCodes } from '../../src/contract/error-catalog.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { outcomeContractProblems } from '../../src/contract/outcome-contract.ts';
import { idempotencyKeySchema } from '../../src/contract/schema-helpers.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';

// The guide's example runs here against a real service, and the guide must show exactly this code.
const server = await startBackendServer();
process.env.WAREHOUSE_URL = `${server.url}/v1`;
process.env.WAREHOUSE_TOKEN = 'svc-token';

// #region guide-example
const warehouse = createHttpBackend({
  baseUrl: process.env.WAREHOUSE_URL ?? 'http://127.0.0.1:4200/v1',
  headers: () => ({ authorization: `Bearer ${process.env.WAREHOUSE_TOKEN}` }),
  // The warehouse stores the first answer per Idempotency-Key, so a lost answer may be asked for again.
  dedupesByKey: true,
  attemptTimeoutMs: 2_000,
});

const stockErrors = defineErrorCodes({
  SKU_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description: 'No product has this SKU; look it up instead of guessing.',
  },
  INSUFFICIENT_STOCK: {
    category: 'state',
    retryable: false,
    description: 'Fewer units are available than requested; nothing was reserved.',
  },
  RESERVATION_NOT_MADE: {
    category: 'state',
    retryable: false,
    description: 'The warehouse confirmed the reservation never happened; a new attempt needs a new key.',
  },
});

// The warehouse's wire format: every 2xx body is checked against it.
const reservation = z.object({ reservation_id: z.string(), sku: z.string(), quantity: z.number().int() });
const keyStatus = z.object({ state: z.enum(['applied', 'processing']), reservation: reservation.nullable() });

const stockReserve = defineTool({
  name: 'stock_reserve',
  title: 'Reserve stock',
  description:
    'Reserves units of one product in the warehouse for an order. Answers the reservation id. ' +
    'Refused with SKU_NOT_FOUND or INSUFFICIENT_STOCK; on outcome_unknown poll operations_get.',
  kind: 'write',
  mutation: 'create',
  externalSystems: ['warehouse'],
  version: '1.0.0',
  input: z.strictObject({
    sku: z
      .string()
      .regex(/^[A-Z0-9-]{3,32}$/)
      .describe('Product SKU, e.g. CHAIR-01.'),
    quantity: z.number().int().min(1).max(1_000).describe('Units to reserve.'),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.strictObject({ reservation_id: z.string(), sku: z.string(), quantity: z.number().int() }),
  // Only the codes the mappings below answer: the kit's other codes are the gateway's own.
  errors: [stockErrors.SKU_NOT_FOUND, stockErrors.INSUFFICIENT_STOCK, stockErrors.RESERVATION_NOT_MADE],
  scopes: ['stock:write'],
  timeoutMs: 8_000,
  examples: [
    {
      title: 'Reserve two chairs',
      input: { sku: 'CHAIR-01', quantity: 2, idempotency_key: 'reserve-4f1c2a9e7b3d' },
    },
  ],
  async handler(input, ctx) {
    const result = await warehouse.call(ctx, {
      method: 'POST',
      path: '/skus/{sku}/reservations',
      params: { sku: input.sku },
      body: { quantity: input.quantity },
      response: reservation,
      rejections: {
        404: { code: 'SKU_NOT_FOUND', message: `No product has SKU ${input.sku}.` },
        409: {
          code: 'INSUFFICIENT_STOCK',
          message: (body) => {
            const available = z.object({ available: z.number().int() }).safeParse(body).data?.available;
            return `Only ${available ?? 'fewer'} units are available; nothing was reserved.`;
          },
          resolution: 'Ask the customer whether to reserve fewer units, with a new idempotency_key.',
        },
      },
    });
    if (result.kind === 'ok') await ctx.operation?.addExternalRef('warehouse', result.body.reservation_id);
    return backendOutcome(result, (made) => outcome.completed(made), {
      system: 'the warehouse',
      correlationId: ctx.correlationId,
      log: ctx.log,
    });
  },
  // The warehouse fences a key it answered 404 for, so "never applied" stays true.
  reconcile: (operation, ctx) =>
    warehouse.lookup(operation, ctx, {
      path: (operationId) => `/reservations/by-key/${encodeURIComponent(operationId)}`,
      response: keyStatus,
      decide: (status) =>
        status.state === 'applied' && status.reservation
          ? { outcome: outcome.completed(status.reservation) }
          : { pending: 'the warehouse is still processing the reservation' },
      notFound: 'never_applied',
      onNeverApplied: () =>
        outcome.rejected('RESERVATION_NOT_MADE', 'The warehouse confirmed nothing was reserved.'),
    }),
});
// #endregion

afterAll(() => server.close());

const tool = new ToolRegistry({ retentionSeconds: 60 }).register(stockReserve).get('stock_reserve')!;
const operationId = 'op_01JTESTOPERATION0000000006';
const refs: string[] = [];
const handle: OperationHandle = {
  id: operationId,
  key: 'reserve-4f1c2a9e7b3d',
  mode: 'execute',
  checkpoints: {},
  saveCheckpoint: async () => {},
  addExternalRef: async (system, ref) => {
    refs.push(`${system}:${ref}`);
  },
  commit: () => Promise.reject(new Error('the guide example keeps no state in the gateway database')),
};
const toolContext = (): ToolContext => ({
  principal: { subject: 'u1', tenant: 't1', actor: 'support_agent', scopes: new Set(['stock:write']) },
  signal: new AbortController().signal,
  deadline: Date.now() + 5_000,
  correlationId: 'corr-guide',
  annotate: () => undefined,
  exceptions: noExceptions,
  operation: handle,
  confirmation: null,
  log: pino({ level: 'silent' }),
});
const snapshot: OperationSnapshot = {
  id: operationId,
  tenant: 't1',
  subject: 'u1',
  tool: 'stock_reserve',
  key: handle.key,
  attempts: 1,
  checkpoints: {},
  externalRefs: {},
  createdAt: new Date(),
};
const input = { sku: 'CHAIR-01', quantity: 2, idempotency_key: handle.key };
const reserve = async () => {
  const answer = await stockReserve.handler(input, toolContext());
  expect(outcomeContractProblems(tool, answer, 'execute').problems).toEqual([]);
  return answer;
};

beforeEach(() => {
  server.requests.length = 0;
  refs.length = 0;
});

describe('the guide example', () => {
  it('reserves, sending the operation id, credentials and the encoded path', async () => {
    server.script({ status: 201, body: { reservation_id: 'res_1', sku: 'CHAIR-01', quantity: 2 } });
    expect(await reserve()).toEqual(
      outcome.completed({ reservation_id: 'res_1', sku: 'CHAIR-01', quantity: 2 }),
    );
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/skus/CHAIR-01/reservations',
      headers: {
        'idempotency-key': operationId,
        authorization: 'Bearer svc-token',
        'x-correlation-id': 'corr-guide',
      },
    });
    expect(refs).toEqual(['warehouse:res_1']);
  });

  it('answers the mapped refusal, and outcome_unknown after the answers were lost', async () => {
    server.script({ status: 409, body: { error: 'insufficient_stock', available: 1 } });
    expect(await reserve()).toMatchObject({
      status: 'rejected',
      code: 'INSUFFICIENT_STOCK',
      message: 'Only 1 units are available; nothing was reserved.',
    });
    server.script({ reset: true }, { status: 502 }, { reset: true });
    expect(await reserve()).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
    expect(server.requests).toHaveLength(4);
    expect(refs).toEqual([]);
  });

  it('reconciles by asking the warehouse for the key', async () => {
    const ctx = { signal: new AbortController().signal, log: pino({ level: 'silent' }) };
    const body = { state: 'applied', reservation: { reservation_id: 'res_2', sku: 'CHAIR-01', quantity: 2 } };
    server.script(
      { status: 200, body },
      { status: 200, body: { state: 'processing', reservation: null } },
      { status: 404 },
    );
    expect(await stockReserve.reconcile!(snapshot, ctx)).toMatchObject({
      settled: true,
      outcome: { status: 'completed' },
    });
    expect(await stockReserve.reconcile!(snapshot, ctx)).toMatchObject({ settled: false });
    expect(await stockReserve.reconcile!(snapshot, ctx)).toMatchObject({
      settled: true,
      outcome: { status: 'rejected', code: 'RESERVATION_NOT_MADE' },
    });
    expect(server.requests.map((r) => r.url)).toEqual(
      Array(3).fill(`/v1/reservations/by-key/${operationId}`),
    );
  });

  it('is the code docs/http-backend.md shows', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const region = source.split('// #region guide-example\n')[1]!.split('// #endregion')[0]!;
    const guide = readFileSync(new URL('../../../../docs/http-backend.md', import.meta.url), 'utf8');
    const block = guide.split('<!-- guide-example -->\n```ts\n')[1]!.split('```')[0]!;
    expect(block.replace(/^import [^;]+;\n/gm, '').trim()).toBe(region.trim());
  });
});
