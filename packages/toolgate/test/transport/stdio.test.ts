import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newProbeLedger, probeReader, probeTools } from '../../../../test/gateway/probe-tools.ts';
import { testToolsDomain } from '../../../../test/support/start-gateway.ts';
import { type App, createApp } from '../../src/app/create-app.ts';
import { loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';
import { mintToken } from '../../src/auth/mint-token.ts';
import { ProtocolError } from '../../src/gateway/protocol-layer.ts';
import { type StdioTransport, startStdioTransport } from '../../src/transport/stdio-server.ts';
import { replies } from './line-replies.ts';
import { StreamClientTransport } from './stream-client-transport.ts';

const CLI = join(import.meta.dirname, '../../../../bin/toolgate.mjs');

/** The session's principal: a customer who may call the probe tools. */
const reader = {
  subject: 'user_probe_reader',
  tenant: 'tenant_probe',
  actor: 'customer' as const,
  scopes: new Set(['probe:read']),
};

const initialize = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lines', version: '0' } },
};

describe('the pipeline over stdio', () => {
  const ledger = newProbeLedger();
  let dataDir: string;
  let app: App;
  let stdio: StdioTransport;
  let client: Client;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-stdio-'));
    app = await createApp({
      dataDir,
      logger: pino({ level: 'silent' }),
      modules: [testToolsDomain(probeTools(ledger), [probeReader])],
    });
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    stdio = await startStdioTransport(app, reader, { input: toServer, output: fromServer });
    client = new Client({ name: 'stdio-test', version: '0' });
    await client.connect(new StreamClientTransport(fromServer, toServer));
  });
  afterAll(async () => {
    await client.close();
    await stdio.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })).structuredContent as Record<string, unknown>;

  test('the same outcomes as over HTTP, for the principal of the session', async () => {
    const tools = (await client.listTools()).tools.filter((t) => t.name.startsWith('probe_'));
    expect(tools.every((t) => t.inputSchema.additionalProperties === false && t.outputSchema)).toBe(true);
    expect(await call('probe_echo', { text: 'hi' })).toMatchObject({
      status: 'completed',
      result: { text: 'hi' },
    });
    expect(await call('probe_echo', { text: 'hi', colour: 'red' })).toMatchObject({
      status: 'failed',
      code: 'INVALID_ARGUMENT',
      field_errors: [expect.objectContaining({ field: 'colour' })],
    });
    expect(await call('probe_admin_echo', { text: 'hi' })).toMatchObject({ code: 'FORBIDDEN' });
    expect(await call('probe_wrong_shape', { text: 'hi' })).toMatchObject({
      code: 'OUTPUT_CONTRACT_VIOLATION',
    });
    const thrown = await call('probe_throw', { text: 'hi' });
    expect(thrown).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(JSON.stringify(thrown)).not.toMatch(/\/srv\/|SELECT/);
    expect(await call('probe_slow', { text: 'hi' })).toMatchObject({ code: 'EXECUTION_TIMEOUT' });
    expect(ledger.slowSignalAborted).toBe(true);
    const unknown = await client.callTool({ name: 'probe_nope', arguments: {} }).catch((e: unknown) => e);
    expect((unknown as McpError).code).toBe(-32602);
    expect(ledger.executions).toEqual({ probe_echo: 1, probe_wrong_shape: 1, probe_throw: 1, probe_slow: 1 });
  });

  test('a session ends with its token: a call after the token stopped being valid is refused, nothing runs', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    let valid = true;
    const session = await startStdioTransport(app, reader, { input: toServer, output: fromServer }, () => {
      if (valid) return reader;
      throw new ProtocolError(-32600, 'TOOLGATE_TOKEN is no longer accepted (token expired)');
    });
    const expiring = new Client({ name: 'stdio-expiry', version: '0' });
    await expiring.connect(new StreamClientTransport(fromServer, toServer));
    try {
      const before = ledger.executions.probe_echo ?? 0;
      await expiring.callTool({ name: 'probe_echo', arguments: { text: 'hi' } });
      valid = false;
      await expect(expiring.callTool({ name: 'probe_echo', arguments: { text: 'late' } })).rejects.toThrow(
        'token expired',
      );
      expect(ledger.executions.probe_echo).toBe(before + 1);
    } finally {
      await expiring.close();
      await session.close();
    }
  });

  describe('every line is charged to the rate, whoever answers it', () => {
    let limited: App;
    let raw: StdioTransport;
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const out = replies(fromServer);
    const send = (line: string) => toServer.write(line);
    beforeAll(async () => {
      limited = await createApp({
        dataDir: mkdtempSync(join(tmpdir(), 'toolgate-stdio-rate-')),
        logger: pino({ level: 'silent' }),
        modules: [testToolsDomain(probeTools(newProbeLedger()), [probeReader])],
        limits: { perPrincipal: 5 },
      });
      raw = await startStdioTransport(limited, reader, { input: toServer, output: fromServer });
      send(`${JSON.stringify(initialize)}\n`);
      await out.atLeast(1);
    });
    afterAll(async () => {
      await raw.close();
      await limited.close();
    });

    /** Sends each line and waits for its answer; the error codes answered, in order. */
    async function codesOf(lines: string[]): Promise<number[]> {
      const codes: number[] = [];
      for (const line of lines) {
        const before = out.received.length;
        send(line);
        const [answer] = (await out.atLeast(before + 1)).slice(before);
        codes.push((answer!.error as { code: number } | undefined)?.code ?? 0);
      }
      return codes;
    }

    test('tool calls the server refuses before the gateway, and lines that are no message, are charged', async () => {
      const badCall = (id: number) =>
        `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'probe_echo', arguments: [1] } })}\n`;
      const calls = await codesOf(Array.from({ length: 12 }, (_, i) => badCall(100 + i)));
      expect(calls[0]).toBe(-32602);
      // A bucket of five (the initialize took two) and a token or two of refill: the rest over the rate.
      expect(calls.filter((code) => code === -32602).length).toBeLessThanOrEqual(6);
      expect(calls.at(-1)).toBe(-32000);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const garbage = await codesOf(Array.from({ length: 12 }, () => 'not json\n'));
      expect(garbage[0]).toBe(-32700);
      expect(garbage.filter((code) => code === -32700).length).toBeLessThanOrEqual(8);
      expect(garbage.at(-1)).toBe(-32000);
      const [refusal] = out.received.slice(-1);
      expect((refusal!.error as { message: string }).message).toMatch(
        /^Too many requests \(over 5 calls per second\)/,
      );
    });
  });

  describe('every line gets its answer', () => {
    let raw: StdioTransport;
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const out = replies(fromServer);
    const send = (line: string) => toServer.write(line);
    beforeAll(async () => {
      raw = await startStdioTransport(app, reader, { input: toServer, output: fromServer });
      send(`${JSON.stringify(initialize)}\n`);
      await out.atLeast(1);
      send(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    });
    afterAll(() => raw.close());

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
});

describe('toolgate serve --stdio', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-stdio-cli-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('refuses to start without a valid TOOLGATE_TOKEN', async () => {
    const run = promisify(execFile)(
      process.execPath,
      [CLI, 'serve', '--stdio', '--no-seed', '--data-dir', dataDir],
      {
        env: { ...process.env, TOOLGATE_TOKEN: 'not-a-token' },
      },
    );
    const failure = (await run.catch((e: unknown) => e)) as { code: number; stderr: string; stdout: string };
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('refusing to start');
    expect(failure.stdout).toBe('');
  });

  test('serves a real client over its stdin/stdout as the token principal', async () => {
    const token = await mintToken(
      await loadOrCreateDevKeys(dataDir),
      { sub: 'u1', tenant: 't1', actor: 'operator', scopes: ['operations:read'] },
      { audience: 'http://127.0.0.1:8787/mcp' },
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--no-seed', '--data-dir', dataDir],
      env: { PATH: process.env.PATH ?? '', TOOLGATE_TOKEN: token, TOOLGATE_LOG_LEVEL: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-cli-test', version: '0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('toolgate');
      const { tools } = await client.listTools();
      expect(Array.isArray(tools)).toBe(true);
    } finally {
      await client.close();
    }
  }, 20_000);

  for (const mode of [{ pin: '2026-07-28' }, 'auto'] as const) {
    test(`serves the v2 client (${typeof mode === 'string' ? mode : 'pinned'}) on 2026-07-28 over its stdin/stdout`, async () => {
      const token = await mintToken(
        await loadOrCreateDevKeys(dataDir),
        { sub: 'u2', tenant: 't1', actor: 'operator', scopes: ['operations:read'] },
        { audience: 'http://127.0.0.1:8787/mcp' },
      );
      const client = new ModernClient(
        { name: 'stdio-cli-test', version: '0' },
        { versionNegotiation: { mode } },
      );
      await client.connect(
        new ModernStdioClientTransport({
          command: process.execPath,
          args: [CLI, 'serve', '--stdio', '--no-seed', '--data-dir', dataDir],
          env: { PATH: process.env.PATH ?? '', TOOLGATE_TOKEN: token, TOOLGATE_LOG_LEVEL: 'warn' },
          stderr: 'pipe',
        }),
      );
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('operations_get');
        const missing = await client.callTool({
          name: 'operations_get',
          arguments: { operation_id: 'op_00000000000000000000000000' },
        });
        expect(missing.structuredContent).toMatchObject({ tool: 'operations_get', ok: false });
      } finally {
        await client.close();
      }
    }, 20_000);
  }
});
