import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { newProbeLedger, probeReader, probeTools } from '../../../../test/gateway/probe-tools.ts';
import { testToolsDomain } from '../../../../test/support/start-gateway.ts';
import { type App, createApp } from '../../src/app/create-app.ts';
import { type StdioTransport, startStdioTransport } from '../../src/transport/stdio-server.ts';
import { StreamClientTransport } from '../transport/stream-client-transport.ts';

const reader = {
  subject: 'user_probe_reader',
  tenant: 'tenant_probe',
  actor: 'customer' as const,
  scopes: new Set(['probe:read']),
};

/** Over stdio a connection is one client: the name it gave in `initialize` is its calls' application. */
describe('the stdio client name as the application', () => {
  let dataDir: string;
  let app: App;
  let stdio: StdioTransport;
  let client: Client;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-stdio-name-'));
    app = await createApp({
      dataDir,
      logger: pino({ level: 'silent' }),
      modules: [testToolsDomain(probeTools(newProbeLedger()), [probeReader])],
    });
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    stdio = await startStdioTransport(app, reader, { input: toServer, output: fromServer });
    client = new Client({ name: 'release-desk', version: '2.1.0' });
    await client.connect(new StreamClientTransport(fromServer, toServer));
  });
  afterAll(async () => {
    await client.close();
    await stdio.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a refused call's audit entry names the client", async () => {
    const answer = await client.callTool({ name: 'probe_admin_echo', arguments: { text: 'hi' } });
    expect(answer.structuredContent).toMatchObject({ code: 'FORBIDDEN' });
    const rows = await app.db.query<{ detail: string }>(
      'SELECT detail FROM audit_log WHERE action = ? AND subject = ?',
      ['probe_admin_echo', reader.subject],
    );
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.detail)).toMatchObject({ application: 'release-desk' });
  });
});
