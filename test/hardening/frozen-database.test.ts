import type { DemoPrincipal } from '@toolgate/simulation';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createScratchDatabase, postgresAvailable, type ScratchDatabase } from '../support/pg.ts';
import { type StartedGateway, type StartGatewayOptions, startGateway } from '../support/start-gateway.ts';
import { testDomain } from '../support/test-domain.ts';
import { type FreezableProxy, startFreezableProxy } from './freezable-proxy.ts';

const pgUp = await postgresAvailable();
const teller: DemoPrincipal = {
  name: 'teller',
  subject: 'teller',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
  description: 'Credits accounts at the test bank.',
};
const TOOL_TIMEOUT_MS = 2_000;
const STATEMENT_TIMEOUT_MS = 1_000;

/** Issue 14.2: with PostgreSQL frozen, every wait is bounded and the answer says what is known. */
describe.skipIf(!pgUp)('a frozen PostgreSQL', () => {
  let scratch: ScratchDatabase;
  let proxy: FreezableProxy;
  let gw: StartedGateway;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    proxy = await startFreezableProxy(scratch.url);
    gw = await startGateway({
      modules: [testDomain({ timeoutMs: TOOL_TIMEOUT_MS })],
      principals: [teller],
      databaseUrl: proxy.url,
      app: { backgroundJobs: false, statementTimeoutMs: STATEMENT_TIMEOUT_MS } as StartGatewayOptions['app'],
    });
    // Warm the pool so frozen connections are the ones in use, as in production.
    await gw.callTool('teller', 'testing_credit_account', {
      account: 'acc-warm',
      amount: 1,
      idempotency_key: 'frozen-warm-key-0001',
    });
  });
  afterAll(async () => {
    proxy?.thaw();
    await gw?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  test('/readyz answers 503 within a second', async () => {
    proxy.freeze();
    try {
      const started = Date.now();
      const response = await fetch(`${gw.origin}/readyz`);
      expect(response.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      proxy.thaw();
    }
  });

  test('a write answers DEPENDENCY_UNAVAILABLE or outcome_unknown within a bounded time, not 45 s', async () => {
    proxy.freeze();
    try {
      const started = Date.now();
      const answer = await gw.callTool('teller', 'testing_credit_account', {
        account: 'acc-frozen',
        amount: 5,
        idempotency_key: 'frozen-write-key-0001',
      });
      const tookMs = Date.now() - started;
      expect(answer.code).toBe('DEPENDENCY_UNAVAILABLE');
      expect(['failed', 'outcome_unknown']).toContain(answer.status);
      // Reservation waits at most one statement timeout (plus the client's 1 s); the stored outcome is
      // waited for at most the gateway's settle margin.
      expect(tookMs).toBeLessThan(TOOL_TIMEOUT_MS + STATEMENT_TIMEOUT_MS + 1_000 + 1_000);
    } finally {
      proxy.thaw();
    }
  }, 20_000);

  test('a database that freezes during the call does not hold the answer past the tool timeout and the settle margin', async () => {
    let executing = (_: string) => {};
    const slow = await startGateway({
      modules: [testDomain({ timeoutMs: TOOL_TIMEOUT_MS, delayMs: 300, onExecute: (id) => executing(id) })],
      principals: [teller],
      databaseUrl: proxy.url,
      app: { backgroundJobs: false, statementTimeoutMs: STATEMENT_TIMEOUT_MS } as StartGatewayOptions['app'],
    });
    try {
      await slow.callTool('teller', 'testing_credit_account', {
        account: 'acc-warm',
        amount: 1,
        idempotency_key: 'frozen-late-warm-0001',
      });
      const handlerStarted = new Promise<string>((resolve) => {
        executing = resolve;
      });
      const started = Date.now();
      const answering = slow.callTool('teller', 'testing_credit_account', {
        account: 'acc-late',
        amount: 5,
        idempotency_key: 'frozen-late-key-00001',
      });
      // Frozen after the reservation, while the handler is still waiting to apply the credit.
      await handlerStarted;
      proxy.freeze();
      const answer = await answering;
      const tookMs = Date.now() - started;
      expect(answer.status).toBe('outcome_unknown');
      // The tool timeout, then at most the settle margin (1 s) for storing the outcome.
      expect(tookMs).toBeLessThan(TOOL_TIMEOUT_MS + 1_000 + 500);
    } finally {
      proxy.thaw();
      await slow.close();
    }
  }, 20_000);
});
