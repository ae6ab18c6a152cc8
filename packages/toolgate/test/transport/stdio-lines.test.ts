import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { DEFAULT_JSON_KEY_LIMIT } from '../../src/transport/json-bounds.ts';
import { StdioLineTransport } from '../../src/transport/stdio-line-transport.ts';
import { replies } from './line-replies.ts';

describe('the stdio line transport', () => {
  test('a line over the limit is skipped to its newline and answered once; the next line is read', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const out = replies(output);
    const transport = new StdioLineTransport(input, output, 64);
    const messages: unknown[] = [];
    transport.onmessage = (message) => messages.push(message);
    await transport.start();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    input.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(40)}`);
    input.write(`${'y'.repeat(100)}"}}`);
    input.write(`${'z'.repeat(100)}\n${ping}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await out.atLeast(1)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: a line is limited to 64 bytes' },
      },
    ]);
    expect(messages).toEqual([JSON.parse(ping)]);
    await transport.close();
  });

  test('a line over the key bound is answered -32600 and never reaches the server; the next line is read', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const out = replies(output);
    const transport = new StdioLineTransport(input, output);
    const messages: unknown[] = [];
    transport.onmessage = (message) => messages.push(message);
    await transport.start();
    const args = Object.fromEntries(
      Array.from({ length: DEFAULT_JSON_KEY_LIMIT + 1 }, (_, i) => [`k${i}`, 0]),
    );
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: args } };
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    input.write(`${JSON.stringify(call)}\n${JSON.stringify(ping)}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await out.atLeast(1)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: expect.stringContaining(`more than ${DEFAULT_JSON_KEY_LIMIT} object keys`),
        },
      },
    ]);
    expect(messages).toEqual([ping]);
    await transport.close();
  });

  test('a message written a byte at a time is read once, whole', async () => {
    const input = new PassThrough();
    const transport = new StdioLineTransport(input, new PassThrough());
    const messages: unknown[] = [];
    transport.onmessage = (message) => messages.push(message);
    await transport.start();
    const call = {
      jsonrpc: '2.0',
      id: 'é-1',
      method: 'tools/call',
      params: { name: 'x', arguments: { t: 'ü' } },
    };
    const bytes = Buffer.from(`${JSON.stringify(call)}\r\n`);
    for (let i = 0; i < bytes.length; i += 1) input.write(bytes.subarray(i, i + 1));
    await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual([call]);
    await transport.close();
  });

  test('close stops reading and tells the server once', async () => {
    const input = new PassThrough();
    const transport = new StdioLineTransport(input, new PassThrough());
    let closes = 0;
    const messages: unknown[] = [];
    transport.onclose = () => closes++;
    transport.onmessage = (message) => messages.push(message);
    await transport.start();
    await transport.close();
    await transport.close();
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closes).toBe(1);
    expect(messages).toEqual([]);
    expect(input.isPaused()).toBe(true);
  });
});
