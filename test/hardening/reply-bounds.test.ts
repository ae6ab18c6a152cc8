import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { newProbeLedger, probeReader, probeTools } from '../gateway/probe-tools.ts';
import { type StartedGateway, type StartGatewayOptions, startGateway } from '../support/start-gateway.ts';
import { rawPost } from './raw-post.ts';

/** Issue 14.3: what one POST can make the server produce is bounded. */
describe('bounded answers', () => {
  let gw: StartedGateway;
  let headers: Record<string, string>;
  const post = (body: unknown) => rawPost(gw.url, headers, JSON.stringify(body));
  const echo = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'probe_echo', arguments: { text: 'x'.repeat(100), repeat: 1 } },
  });

  beforeAll(async () => {
    gw = await startGateway({
      modules: [],
      tools: probeTools(newProbeLedger()),
      principals: [probeReader],
      http: { replyLimitBytes: 20_000 } as StartGatewayOptions['http'],
    });
    headers = {
      authorization: `Bearer ${await gw.tokenFor('probe_reader')}`,
      'content-type': 'application/json',
      accept: 'application/json',
    };
  });
  afterAll(() => gw.close());

  test('replies past the byte budget of one POST are replaced by short errors, in order', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => i + 1);
    const response = await post(ids.map(echo));
    expect(response.status).toBe(200);
    const replies = JSON.parse(response.body);
    expect(replies.map((r: { id: number }) => r.id)).toEqual(ids);
    expect(Buffer.byteLength(response.body)).toBeLessThan(20_000 + 60 * 120);
    expect(replies[0].result).toBeDefined();
    expect(replies.at(-1).error).toMatchObject({ code: -32000 });
  });

  test('tools/list is serialized once per scope set, not per request', async () => {
    // The view is a cached lookup; what must not happen per request is serializing it again.
    const serialized = vi.spyOn(gw.app.registry, 'keepSerializedListing');
    const listing = { jsonrpc: '2.0', method: 'tools/list' };
    const first = JSON.parse((await post({ ...listing, id: 1 })).body);
    const second = JSON.parse((await post({ ...listing, id: 'b' })).body);
    expect(first.result.tools.map((t: { name: string }) => t.name)).toContain('probe_echo');
    expect(second).toEqual({ ...first, id: 'b' });
    expect(serialized.mock.calls.length).toBeLessThanOrEqual(1);
    serialized.mockRestore();
  });

  test('four listings fit the batch cost; five do not', async () => {
    const listings = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' }));
    expect((await post(listings(4))).status).toBe(200);
    expect((await post(listings(5))).status).toBe(400);
  });
});
