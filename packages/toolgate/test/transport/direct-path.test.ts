import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCRequest,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ProbeLedger, probeReader } from '../../../../test/gateway/probe-tools.ts';
import { rawPost } from '../../../../test/hardening/raw-post.ts';
import { startProbeGateway } from '../../../../test/support/probe-gateway.ts';
import type { StartedGateway } from '../../../../test/support/start-gateway.ts';
import { classifyMessage } from '../../src/transport/json-rpc-shape.ts';
import { MultiplexedTransport } from '../../src/transport/multiplexed-transport.ts';

const call: JSONRPCRequest = { jsonrpc: '2.0', id: 'd1', method: 'tools/call', params: { name: 'x' } };
const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('the hand-written message check', () => {
  const anyValue = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.string({ maxLength: 3 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
  );
  const meta = fc.oneof(
    anyValue,
    fc.record(
      {
        progressToken: anyValue,
        [RELATED_TASK_META_KEY]: fc.oneof(anyValue, fc.record({ taskId: anyValue }, { requiredKeys: [] })),
        other: anyValue,
      },
      { requiredKeys: [] },
    ),
  );
  const params = fc.oneof(anyValue, fc.record({ _meta: meta, name: anyValue }, { requiredKeys: [] }));
  const message = fc.record(
    {
      jsonrpc: fc.constantFrom('2.0', '1.0'),
      id: anyValue,
      method: fc.oneof(fc.constantFrom('tools/call', 'ping'), anyValue),
      params,
      extra: anyValue,
    },
    { requiredKeys: [] },
  );

  test('sorts every message exactly as the SDK schemas would', () => {
    fc.assert(
      fc.property(message, (value) => {
        const kind = classifyMessage(value).kind;
        expect(kind === 'request').toBe(isJSONRPCRequest(value));
        expect(kind === 'notification').toBe(isJSONRPCNotification(value));
      }),
      { numRuns: 3_000 },
    );
  });
});

/** The direct path answers tools/call itself, with the bookkeeping the SDK path has. */
describe('the multiplexed transport on the direct path', () => {
  test('a handler that never answers is answered once at the deadline, and its signal aborts', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 40 });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    let signal: AbortSignal | null = null;
    let finish: (text: string) => void = () => {};
    const reply = await transport.direct(call, 'caller', new AbortController().signal, (s) => {
      signal = s;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    });
    expect(parse(reply)).toMatchObject({ jsonrpc: '2.0', id: 'd1', error: { code: -32603 } });
    expect(signal!.aborted).toBe(true);
    expect(errors).toHaveLength(1);
    // A result arriving after the deadline is dropped: the request was answered once already.
    finish('{}');
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toHaveLength(1);
  });

  test('notifications/cancelled from the same caller aborts the handler and answers at once', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 60_000 });
    let signal: AbortSignal | null = null;
    const pending = transport.direct(call, 'caller', new AbortController().signal, (s) => {
      signal = s;
      return new Promise<string>(() => {});
    });
    // Another caller cannot cancel it.
    transport.notify(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'd1' } },
      {},
      'someone else',
    );
    expect(signal!.aborted).toBe(false);
    transport.notify(
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'd1', reason: 'stop' } },
      {},
      'caller',
    );
    expect(signal!.aborted).toBe(true);
    expect(parse(await pending)).toMatchObject({ id: 'd1', error: { code: -32000, message: /stop/ } });
  });

  test('a client that goes away aborts the handler', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 60_000 });
    const gone = new AbortController();
    let signal: AbortSignal | null = null;
    const pending = transport.direct(call, 'caller', gone.signal, (s) => {
      signal = s;
      return new Promise<string>(() => {});
    });
    gone.abort();
    expect(signal!.aborted).toBe(true);
    expect(parse(await pending)).toMatchObject({ error: { code: -32000 } });
  });

  test('a thrown JSON-RPC error keeps its code and message; anything else is a bare internal error', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 60_000 });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const coded = await transport.direct(call, 'caller', new AbortController().signal, async () => {
      throw Object.assign(new Error('No tool is named "x".'), { code: -32602 });
    });
    expect(parse(coded)).toEqual({
      jsonrpc: '2.0',
      id: 'd1',
      error: { code: -32602, message: 'No tool is named "x".' },
    });
    expect(errors).toHaveLength(0);
    const crashed = await transport.direct(call, 'caller', new AbortController().signal, () => {
      throw new Error('secret detail of a bug');
    });
    expect(parse(crashed)).toEqual({
      jsonrpc: '2.0',
      id: 'd1',
      error: { code: -32603, message: 'Internal error' },
    });
    expect(errors.map((e) => e.message)).toEqual(['secret detail of a bug']);
  });

  test('closing the transport answers every waiting direct request', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 60_000 });
    const pending = transport.direct(
      call,
      'caller',
      new AbortController().signal,
      () => new Promise(() => {}),
    );
    await transport.close();
    expect(parse(await pending)).toMatchObject({ id: 'd1', error: { code: -32603 } });
  });
});

describe('tools/call, tools/list and ping over HTTP', () => {
  let gw: StartedGateway;
  let ledger: ProbeLedger;
  let headers: Record<string, string>;
  const post = async (body: unknown) => {
    const reply = await rawPost(gw.url, headers, JSON.stringify(body));
    return { status: reply.status, body: JSON.parse(reply.body) as Record<string, unknown> };
  };

  beforeAll(async () => {
    ({ gw, ledger, headers } = await startProbeGateway({ toolsPageSize: 2 }));
  });
  afterAll(() => gw.close());

  test('a tool result carries the envelope as structuredContent and the same envelope as text', async () => {
    const before = ledger.executions.probe_echo ?? 0;
    const { body } = await post({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'probe_echo', arguments: { text: 'hé "quoted"\n' } },
    });
    const result = body.result as {
      content: { type: string; text: string }[];
      structuredContent: Record<string, unknown>;
      isError: boolean;
    };
    expect(body.id).toBe(7);
    expect(result.structuredContent).toMatchObject({ ok: true, result: { text: 'hé "quoted"\n' } });
    expect(result.content).toHaveLength(1);
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    expect(result.isError).toBe(false);
    expect(ledger.executions.probe_echo).toBe(before + 1);
  });

  test('ping answers an empty result', async () => {
    expect((await post({ jsonrpc: '2.0', id: 'p', method: 'ping' })).body).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      result: {},
    });
  });

  test('a listing longer than a page is paged: following nextCursor yields every tool once, in order', async () => {
    const expected = gw.app.registry.listingFor(new Set(probeReader.scopes)).map((t) => t.name as string);
    expect(expected.length).toBeGreaterThan(4);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { body } = await post({
        jsonrpc: '2.0',
        id: pages,
        method: 'tools/list',
        params: cursor === undefined ? {} : { cursor },
      });
      const result = body.result as { tools: { name: string }[]; nextCursor?: string };
      expect(result.tools.length).toBeLessThanOrEqual(2);
      seen.push(...result.tools.map((t) => t.name));
      cursor = result.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 20);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 2));
  });

  test('the SDK client reads the same pages', async () => {
    const expected = gw.app.registry.listingFor(new Set(probeReader.scopes)).map((t) => t.name as string);
    const client = await gw.client('probe_reader');
    // Without a cursor the client follows every nextCursor itself.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expected);
    // One page at a time, as a client walking pages itself reads them.
    const first = await client.request({ method: 'tools/list', params: {} });
    expect(first.tools.map((t) => t.name)).toEqual(expected.slice(0, 2));
    const second = await client.listTools({ cursor: first.nextCursor! });
    expect(second.tools.map((t) => t.name)).toEqual(expected.slice(2, 4));
  });

  test.each([
    ['a cursor this server never handed out', 'bm9wZQ'],
    ['a cursor that is not a string', 42],
    ['a cursor past the end', Buffer.from('tools-page:999').toString('base64url')],
  ])('%s is -32602, not the first page', async (_name, cursor) => {
    const { body } = await post({ jsonrpc: '2.0', id: 'c', method: 'tools/list', params: { cursor } });
    expect(body).toMatchObject({ id: 'c', error: { code: -32602 } });
    expect(body.result).toBeUndefined();
  });

  test('a batch mixes direct answers, listing pages and server answers in message order', async () => {
    const reply = await rawPost(
      gw.url,
      headers,
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'probe_echo', arguments: { text: 'b' } },
        },
        { jsonrpc: '2.0', id: 3, method: 'ping' },
        { jsonrpc: '2.0', id: 4, method: 'resources/list' },
      ]),
    );
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
    const replies = JSON.parse(reply.body) as {
      id: number;
      result?: Record<string, unknown>;
      error?: { code: number };
    }[];
    expect(replies.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect((replies[0]!.result!.tools as unknown[]).length).toBe(2);
    expect(replies[1]!.result!.structuredContent).toMatchObject({ result: { text: 'b' } });
    expect(replies[2]!.result).toEqual({});
    expect(replies[3]!.error!.code).toBe(-32601);
  });
});
