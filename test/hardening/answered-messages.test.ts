import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ProbeLedger } from '../gateway/probe-tools.ts';
import { startProbeGateway } from '../support/probe-gateway.ts';
import type { StartedGateway } from '../support/start-gateway.ts';
import { rawPost } from './raw-post.ts';

/** Issue 14.1: every JSON-RPC request gets exactly one answer, at once, malformed or not. */
describe('every message gets an answer', () => {
  let gw: StartedGateway;
  let ledger: ProbeLedger;
  let headers: Record<string, string>;
  const post = (body: unknown, withinMs = 3_000) => rawPost(gw.url, headers, JSON.stringify(body), withinMs);
  const echo = (id: number | string, text = 'a') => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'probe_echo', arguments: { text } },
  });

  beforeAll(async () => {
    ({ gw, ledger, headers } = await startProbeGateway());
  });
  afterAll(() => gw.close());

  test.each([
    ['params that are an array', { params: [] }],
    ['_meta that is a string', { params: { name: 'probe_echo', arguments: { text: 'a' }, _meta: 'x' } }],
    ['_meta that is an array', { params: { name: 'probe_echo', arguments: { text: 'a' }, _meta: [1] } }],
    [
      'a progressToken that is an object',
      { params: { name: 'probe_echo', arguments: { text: 'a' }, _meta: { progressToken: {} } } },
    ],
  ])('%s is answered -32602 under its id, nothing executed', async (_name, shape) => {
    const before = ledger.executions.probe_echo ?? 0;
    const response = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', ...shape });
    expect(JSON.parse(response.body)).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    expect(ledger.executions.probe_echo ?? 0).toBe(before);
  });

  test('a malformed message in a batch does not withhold the replies of the others', async () => {
    const response = await post([
      echo(1, 'x'),
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: [] },
      { jsonrpc: '2.0', id: { no: 1 }, method: 'tools/call' },
      echo('3', 'y'),
    ]);
    expect(response.status).toBe(200);
    const replies = JSON.parse(response.body);
    expect(replies.map((r: { id: unknown }) => r.id)).toEqual([1, 2, null, '3']);
    expect(replies[0].result.structuredContent.result).toEqual({ text: 'x' });
    expect(replies[1].error.code).toBe(-32602);
    expect(replies[2].error.code).toBe(-32600);
    expect(replies[3].result.structuredContent.result).toEqual({ text: 'y' });
  });

  test('a request cancelled by notifications/cancelled is answered at once', async () => {
    const started = Date.now();
    const pending = post(
      {
        jsonrpc: '2.0',
        id: 'w1',
        method: 'tools/call',
        params: { name: 'probe_wait', arguments: { text: 'a' } },
      },
      2_500,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancel = await post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'w1', reason: 'user gave up' },
    });
    expect(cancel.status).toBe(202);
    const answer = await pending;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 'w1', error: { code: -32000 } });
  });

  test('a batch costs tools/list by weight: 100 listings are refused before any is built', async () => {
    const listings = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
    const response = await post(listings);
    expect(response.status).toBe(400);
    expect(response.body.length).toBeLessThan(500);
    expect(JSON.parse(response.body).error.code).toBe(-32600);
  });

  test('property: any batch of malformed and valid messages gets one answer per request id', async () => {
    const id = fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.string({ maxLength: 8 }));
    const junk = fc.oneof(
      fc.constant(null),
      fc.string({ maxLength: 5 }),
      fc.integer(),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 3 }),
      fc.object({ maxDepth: 2, maxKeys: 3 }),
    );
    const meta = fc.oneof(
      junk,
      fc.record({ progressToken: junk }),
      fc.record({ 'io.toolgate/idempotency-key': junk }),
    );
    const message = fc.oneof(
      id.map((i) => echo(i)),
      fc.record({ jsonrpc: fc.constant('2.0'), id, method: fc.constant('tools/call'), params: junk }),
      fc.record({
        jsonrpc: fc.constant('2.0'),
        id,
        method: fc.constantFrom('tools/call', 'tools/list', 'ping', 'nope/x'),
        params: fc.record(
          { name: fc.constant('probe_echo'), arguments: junk, _meta: meta },
          {
            requiredKeys: ['name'],
          },
        ),
      }),
      fc.record(
        { jsonrpc: fc.constantFrom('2.0', '1.0', 2), id: junk, method: junk, params: junk, extra: junk },
        { requiredKeys: [] },
      ),
      fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/x'), params: junk }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (items, single) => {
          const body = single ? items[0] : items;
          const response = await post(body);
          expect(response.status).toBeLessThan(500);
          if (response.status === 202) return;
          const parsed = JSON.parse(response.body);
          const replies = Array.isArray(parsed) ? parsed : [parsed];
          for (const reply of replies) {
            expect(reply.jsonrpc).toBe('2.0');
            expect('result' in reply || 'error' in reply).toBe(true);
            expect(JSON.stringify(reply)).not.toMatch(/\bat .*\.(ts|js):\d+|\/srv\/|node_modules/);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
