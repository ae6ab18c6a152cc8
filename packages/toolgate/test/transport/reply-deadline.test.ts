import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { MultiplexedTransport } from '../../src/transport/multiplexed-transport.ts';

const call: JSONRPCRequest = { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: {} };

/** Issue 14.1: a request the server never answers is still answered, once, by the transport. */
describe('the multiplexed transport answers every request', () => {
  test('a request the server drops is answered with an error at the reply deadline', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 50 });
    const seen: unknown[] = [];
    const errors: Error[] = [];
    transport.onmessage = (message) => seen.push(message);
    transport.onerror = (error) => errors.push(error);
    const reply = await transport.request(call, {}, 'caller', new AbortController().signal);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 'c1', error: { code: -32603 } });
    // The handler is told to stop, and the drop is reported rather than silent.
    expect(seen).toContainEqual(expect.objectContaining({ method: 'notifications/cancelled' }));
    expect(errors).toHaveLength(1);
  });

  test('a late reply after the deadline is not delivered a second time', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 20 });
    let internalId = 0;
    transport.onmessage = (message) => {
      if ('id' in message && typeof message.id === 'number') internalId = message.id;
    };
    const reply = await transport.request(call, {}, 'caller', new AbortController().signal);
    await transport.send({ jsonrpc: '2.0', id: internalId, result: {} });
    expect(reply).toMatchObject({ error: { code: -32603 } });
  });

  test('closing the transport answers every waiting request', async () => {
    const transport = new MultiplexedTransport({ replyDeadlineMs: 60_000 });
    transport.onmessage = () => {};
    const pending = transport.request(call, {}, 'caller', new AbortController().signal);
    await transport.close();
    await expect(pending).resolves.toMatchObject({ id: 'c1', error: { code: -32603 } });
  });
});
