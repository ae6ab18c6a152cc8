import { describe, expect, test } from 'vitest';
import { createScratchDatabase, postgresAvailable } from '../support/pg.ts';
import { startGateway } from '../support/start-gateway.ts';
import { newProbeLedger, probeReader, probeTools } from './probe-tools.ts';

const pgUp = await postgresAvailable();

describe('the gateway over each store', () => {
  test.skipIf(!pgUp)('on PostgreSQL: ready, and calls pass the pipeline', async () => {
    const scratch = await createScratchDatabase();
    const ledger = newProbeLedger();
    const gw = await startGateway({
      modules: [],
      tools: probeTools(ledger),
      principals: [probeReader],
      databaseUrl: scratch.url,
    });
    try {
      expect((await fetch(`${gw.origin}/readyz`)).status).toBe(200);
      expect(gw.app.db.dialect).toBe('postgres');
      const envelope = await gw.callTool('probe_reader', 'probe_echo', { text: 'pg' });
      expect(envelope).toMatchObject({ status: 'completed', result: { text: 'pg' } });
      expect(ledger.executions).toEqual({ probe_echo: 1 });
    } finally {
      await gw.close();
      await scratch.drop();
    }
  });

  test('/readyz answers 503 once the database stops answering, while /healthz stays up', async () => {
    const gw = await startGateway({
      modules: [],
      tools: probeTools(newProbeLedger()),
      principals: [probeReader],
    });
    try {
      expect((await fetch(`${gw.origin}/readyz`)).status).toBe(200);
      await gw.app.db.close();
      const ready = await fetch(`${gw.origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'database did not answer' });
      expect((await fetch(`${gw.origin}/healthz`)).status).toBe(200);
    } finally {
      await gw.close().catch(() => undefined);
    }
  });
});
