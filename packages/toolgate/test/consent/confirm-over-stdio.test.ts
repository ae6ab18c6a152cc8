import { PassThrough } from 'node:stream';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { executions, testDomain, testPrincipal } from '../../../../test/support/test-domain.ts';
import { loadConsentKey } from '../../src/auth/consent-key.ts';
import { type StdioTransport, startStdioTransport } from '../../src/transport/stdio-server.ts';
import { StreamClientTransport } from '../transport/stream-client-transport.ts';

/** Over stdio the connection's one principal is the binding; the client asks its user the same way. */
describe('a person confirms through a 2026-07-28 client over stdio', () => {
  let gw: StartedGateway;
  const sessions: StdioTransport[] = [];
  beforeAll(async () => {
    gw = await startGateway({ modules: [testDomain()] });
  });
  afterAll(async () => {
    for (const session of sessions) await session.close();
    await gw.close();
  });

  async function client(answer: 'accept' | 'decline'): Promise<{ client: ModernClient; asked: string[] }> {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const alice = testPrincipal('alice', { scopes: ['testing:write'] });
    sessions.push(
      await startStdioTransport(gw.app, alice, { input: toServer, output: fromServer }, () => alice, {
        consentKey: loadConsentKey(gw.dataDir),
      }),
    );
    const asked: string[] = [];
    const connected = new ModernClient(
      { name: 'stdio-consent', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    connected.setRequestHandler('elicitation/create', async (request) => {
      asked.push((request.params as { message: string }).message);
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    await connected.connect(new StreamClientTransport(fromServer, toServer) as never);
    return { client: connected, asked };
  }

  it('declined runs nothing; accepted runs once', async () => {
    const no = await client('decline');
    const declined = await no.client.callTool({
      name: 'testing_credit_confirmed',
      arguments: { account: 'acc-s', amount: 7_000, idempotency_key: 'consent-stdio-000001' },
    });
    expect(no.asked).toEqual([expect.stringContaining('Credit 7000 cents')]);
    expect(declined.structuredContent).toMatchObject({ code: 'CONFIRMATION_DECLINED' });
    expect(await executions(gw.app.db, 'execute')).toEqual([]);

    const yes = await client('accept');
    const done = await yes.client.callTool({
      name: 'testing_credit_confirmed',
      arguments: { account: 'acc-s', amount: 7_000, idempotency_key: 'consent-stdio-000002' },
    });
    expect(done.structuredContent).toMatchObject({ status: 'completed' });
    expect(await executions(gw.app.db, 'execute')).toHaveLength(1);
  });
});
