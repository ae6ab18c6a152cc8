import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpBackend } from 'toolgate';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backendFaults, faultingFetch } from '../src/backend-faults.ts';

/** A service that applies every POST it receives (a counter) and answers it. */
let server: Server;
let applied = 0;
let base: URL;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.method === 'POST') applied += 1;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ applied }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => backendFaults.clear());

const backend = () =>
  createHttpBackend({ baseUrl: base.href, retry: { attempts: 1 }, fetch: faultingFetch() });
const post = (operation: string) =>
  backend().call(
    { signal: new AbortController().signal, operation: { id: operation } },
    { method: 'POST', path: '/credit-notes', body: {}, response: z.object({ applied: z.number() }) },
  );

describe('faults at the backend kit', () => {
  it('reach only a backend that sends through the faulting fetch: the default one meets none', async () => {
    const before = applied;
    backendFaults.arm({ target: base.host, fault: 'unavailable' });
    const plain = createHttpBackend({ baseUrl: base.href, retry: { attempts: 1 } });
    const result = await plain.call(
      { signal: new AbortController().signal, operation: { id: 'op_plain' } },
      { method: 'POST', path: '/credit-notes', body: {}, response: z.object({ applied: z.number() }) },
    );
    expect(result.kind).toBe('ok');
    expect(applied).toBe(before + 1);
    expect(backendFaults.unapplied().map((f) => f.fault)).toEqual(['unavailable']);
  });

  it('drops the answer after the service applied the request: the kit reports an unknown outcome', async () => {
    const before = applied;
    backendFaults.arm({ target: base.host, fault: 'drop_response_after_apply' });
    const result = await post('op_drop');
    expect(result.kind).toBe('unknown');
    expect(applied).toBe(before + 1);
    expect(backendFaults.unapplied()).toEqual([]);
    // One use: the next request goes through untouched.
    expect((await post('op_after')).kind).toBe('ok');
  });

  it('refuses the connection: nothing reaches the service', async () => {
    const before = applied;
    backendFaults.arm({ target: base.host, fault: 'unavailable', times: 5 });
    const result = await post('op_refused');
    expect(result.kind).toBe('unavailable');
    expect(applied).toBe(before);
  });

  it('delays a request and then sends it', async () => {
    const before = applied;
    backendFaults.arm({ target: base.href, fault: 'delay_ms', params: { ms: 5 } });
    expect((await post('op_delayed')).kind).toBe('ok');
    expect(applied).toBe(before + 1);
    expect(backendFaults.unapplied()).toEqual([]);
  });

  it('keeps a fault aimed at another service unapplied, so the harness can say it targeted nothing', async () => {
    backendFaults.arm({ target: '127.0.0.1:1', fault: 'drop_response_after_apply' });
    expect((await post('op_untouched')).kind).toBe('ok');
    expect(backendFaults.unapplied().map((f) => f.target)).toEqual(['127.0.0.1:1']);
  });
});

describe('faults at real services in the evaluation world', () => {
  it('arms a host target at the backend kit, names a fault no request met, and clears it on reset', async () => {
    const { startReferenceWorld } = await import('../../../test/support/reference-world.ts');
    const ref = await startReferenceWorld();
    try {
      await ref.world.armFault({ target: base.host, fault: 'drop_response_after_apply', times: 1, skip: 0 });
      expect(ref.world.unappliedFaults()).toEqual([
        `fault drop_response_after_apply on ${base.host} targets nothing: no request through the backend kit met it`,
      ]);
      // Requests to that host meet it, also from a backend that takes the default fetch.
      const plain = createHttpBackend({ baseUrl: base.href, retry: { attempts: 1 } });
      const answer = await plain.call(
        { signal: new AbortController().signal, operation: { id: 'op_world' } },
        { method: 'POST', path: '/credit-notes', body: {}, response: z.object({ applied: z.number() }) },
      );
      expect(answer.kind).toBe('unknown');
      expect(ref.world.unappliedFaults()).toEqual([]);
      await ref.world.armFault({ target: base.host, fault: 'delay_ms', times: 1, skip: 0 });
      await ref.world.reset();
      expect(backendFaults.unapplied()).toEqual([]);
      await expect(
        ref.world.armFault({ target: base.host, fault: 'omit_field', times: 1, skip: 0 }),
      ).rejects.toThrow('cannot be applied at the backend kit');
    } finally {
      await ref.close();
    }
  }, 60_000);
});
