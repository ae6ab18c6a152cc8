import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../src/app/create-app.ts';
import { StdioLineTransport } from '../../src/transport/stdio-line-transport.ts';
import { type StdioTransport, startStdioTransport } from '../../src/transport/stdio-server.ts';
import { newProbeLedger, probeReader, probeTools } from '../gateway/probe-tools.ts';
import { testToolsDomain } from '../support/start-gateway.ts';

/** Reads the server's stdout as lines of JSON, in order. */
function replies(stream: PassThrough) {
  const received: Record<string, unknown>[] = [];
  let buffered = '';
  const waiters: Array<() => void> = [];
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      received.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
      buffered = buffered.slice(end + 1);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  return {
    received,
    async atLeast(count: number): Promise<Record<string, unknown>[]> {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return received;
    },
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lines', version: '0' } },
};

describe('every line on stdio gets its answer', () => {
  const ledger = newProbeLedger();
  let dataDir: string;
  let app: App;
  let stdio: StdioTransport;
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const out = replies(fromServer);
  const send = (line: string) => toServer.write(line);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-stdio-lines-'));
    app = await createApp({
      dataDir,
      logger: pino({ level: 'silent' }),
      seed: false,
      modules: [testToolsDomain(probeTools(ledger), [probeReader])],
    });
    const principal = {
      subject: 'user_probe_reader',
      tenant: 'tenant_probe',
      actor: 'customer' as const,
      scopes: new Set(['probe:read']),
    };
    stdio = await startStdioTransport(app, principal, { input: toServer, output: fromServer });
    send(`${JSON.stringify(initialize)}\n`);
    await out.atLeast(1);
    send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  });
  afterAll(async () => {
    await stdio.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('lines that are not messages are answered with the JSON-RPC error for each, and nothing runs', async () => {
    const before = out.received.length;
    const executed = { ...ledger.executions };
    send('this is not json\n');
    send('\n   \r\n');
    send('[]\n');
    send(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', colour: 'red' })}\n`);
    send(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: 5 })}\r\n`);
    send(`${JSON.stringify({ jsonrpc: '1.0', id: 9, method: 'ping' })}\n`);
    send('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"probe_echo"\n');
    const answered = (await out.atLeast(before + 6)).slice(before);
    expect(answered.map((r) => [r.id, (r.error as { code: number }).code])).toEqual([
      [null, -32700],
      [null, -32600],
      [7, -32600],
      [8, -32602],
      [9, -32600],
      [null, -32700],
    ]);
    expect((answered[0]!.error as { message: string }).message).toMatch(/^Parse error/);
    expect(ledger.executions).toEqual(executed);
  });

  test('a message split across writes, and one after garbage on the stream, are served', async () => {
    const before = out.received.length;
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 'call-1',
      method: 'tools/call',
      params: { name: 'probe_echo', arguments: { text: 'héllo' } },
    });
    const bytes = Buffer.from(`garbage\n${call}\n`);
    // Split inside the multi-byte character, so the line is only decoded once it is whole.
    const cut = bytes.indexOf(Buffer.from('é')) + 1;
    toServer.write(bytes.subarray(0, cut));
    toServer.write(bytes.subarray(cut));
    const [garbage, answer] = (await out.atLeast(before + 2)).slice(before);
    expect(garbage).toMatchObject({ id: null, error: { code: -32700 } });
    expect(answer).toMatchObject({
      id: 'call-1',
      result: { structuredContent: { status: 'completed', result: { text: 'héllo' } } },
    });
  });
});

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
