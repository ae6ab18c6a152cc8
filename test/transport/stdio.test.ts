import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpError } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../src/app/create-app.ts';
import { loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';
import { mintToken } from '../../src/auth/mint-token.ts';
import { ProtocolError } from '../../src/gateway/protocol-layer.ts';
import { type StdioTransport, startStdioTransport } from '../../src/transport/stdio-server.ts';
import { newProbeLedger, probeReader, probeTools } from '../gateway/probe-tools.ts';
import { testToolsDomain } from '../support/start-gateway.ts';
import { StreamClientTransport } from './stream-client-transport.ts';

const CLI = join(import.meta.dirname, '../../bin/toolgate.mjs');

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
      seed: false,
      modules: [testToolsDomain(probeTools(ledger), [probeReader])],
    });
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const principal = {
      subject: 'user_probe_reader',
      tenant: 'tenant_probe',
      actor: 'customer' as const,
      scopes: new Set(['probe:read']),
    };
    stdio = await startStdioTransport(app, principal, { input: toServer, output: fromServer });
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
    const principal = {
      subject: 'user_probe_reader',
      tenant: 'tenant_probe',
      actor: 'customer' as const,
      scopes: new Set(['probe:read']),
    };
    let valid = true;
    const session = await startStdioTransport(app, principal, { input: toServer, output: fromServer }, () => {
      if (valid) return principal;
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
});
