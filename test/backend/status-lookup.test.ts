import type { StatusLookup } from 'toolgate';
import { createHttpBackend, type HttpBackend, outcome } from 'toolgate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type BackendServer, refusedUrl, startBackendServer } from './backend-server.ts';

const transfer = z.strictObject({
  state: z.enum(['applied', 'refused', 'processing', 'disputed']),
  id: z.string(),
});
type Result = { transfer_id: string };
const operation = { id: 'op_01JTESTOPERATION0000000005' };
const ctx = () => ({ signal: new AbortController().signal });

const spec: StatusLookup<typeof transfer, Result> = {
  path: (operationId) => `/transfers/by-operation/${operationId}`,
  response: transfer,
  decide: (body) => {
    if (body.state === 'applied') return { outcome: outcome.completed({ transfer_id: body.id }) };
    if (body.state === 'refused')
      return { outcome: outcome.rejected('TRANSFER_REFUSED', 'The bank refused it.') };
    if (body.state === 'processing') return { pending: 'the bank is still processing the transfer' };
    return { review: 'the bank reports the transfer as disputed' };
  },
};

let server: BackendServer;
let backend: HttpBackend;
beforeEach(async () => {
  server = await startBackendServer();
  backend = createHttpBackend({ baseUrl: server.url, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
});
afterEach(async () => {
  await server.close();
});

describe('lookup', () => {
  it('asks the status resource with the operation id in the idempotency header', async () => {
    server.script({ status: 200, body: { state: 'applied', id: 'tr_1' } });
    expect(await backend.lookup(operation, ctx(), spec)).toEqual({
      settled: true,
      outcome: { status: 'completed', result: { transfer_id: 'tr_1' } },
    });
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: `/transfers/by-operation/${operation.id}`,
        headers: expect.objectContaining({ 'idempotency-key': operation.id }),
      }),
    ]);
  });

  it('settles a refusal, waits on pending, and escalates what needs a human', async () => {
    server.script(
      { status: 200, body: { state: 'refused', id: 'tr_2' } },
      { status: 200, body: { state: 'processing', id: 'tr_2' } },
      { status: 200, body: { state: 'disputed', id: 'tr_2' } },
    );
    expect(await backend.lookup(operation, ctx(), spec)).toMatchObject({
      settled: true,
      outcome: { status: 'rejected', code: 'TRANSFER_REFUSED' },
    });
    expect(await backend.lookup(operation, ctx(), spec)).toEqual({
      settled: false,
      note: 'the bank is still processing the transfer',
    });
    expect(await backend.lookup(operation, ctx(), spec)).toEqual({
      settled: false,
      note: 'the bank reports the transfer as disputed',
      escalate: true,
    });
  });

  it('leaves a 404 unknown by default, and settles it with the tool outcome when the service fences ids', async () => {
    server.fallback = { status: 404 };
    const unknown = await backend.lookup(operation, ctx(), spec);
    expect(unknown).toMatchObject({ settled: false, note: expect.stringContaining('404') });
    expect(unknown).not.toHaveProperty('escalate');
    const fenced = await backend.lookup(operation, ctx(), {
      ...spec,
      notFound: 'never_applied',
      onNeverApplied: () => outcome.rejected('TRANSFER_NOT_APPLIED', 'The transfer never took effect.'),
    });
    expect(fenced).toMatchObject({
      settled: true,
      outcome: { status: 'rejected', code: 'TRANSFER_NOT_APPLIED' },
    });
    expect(server.requests).toHaveLength(2);
  });

  it('stays unsettled, without escalating, when the service cannot answer (5xx, timeout, refused, unmapped 4xx)', async () => {
    server.script({ status: 500 }, { status: 503 }, { status: 403 });
    const failing = await backend.lookup(operation, ctx(), spec);
    expect(failing).toEqual({ settled: false, note: expect.stringContaining('503') });
    expect(server.requests).toHaveLength(2);
    expect(await backend.lookup(operation, ctx(), spec)).toEqual({
      settled: false,
      note: expect.stringContaining('403'),
    });
    server.fallback = { hang: true };
    const slow = createHttpBackend({ baseUrl: server.url, attemptTimeoutMs: 100, retry: { attempts: 1 } });
    expect(await slow.lookup(operation, ctx(), spec)).toEqual({
      settled: false,
      note: expect.stringContaining('no answer within 100 ms'),
    });
    const down = createHttpBackend({ baseUrl: (await refusedUrl()).url, retry: { attempts: 1 } });
    expect(await down.lookup(operation, ctx(), spec)).toEqual({
      settled: false,
      note: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('escalates an answer that breaks the schema, naming the problems', async () => {
    server.script({ status: 200, body: { state: 'lost' } });
    const verdict = await backend.lookup(operation, ctx(), spec);
    expect(verdict).toMatchObject({ settled: false, escalate: true });
    expect(!verdict.settled && verdict.note).toMatch(/state: .*; id: expected string, received undefined/);
  });
});
