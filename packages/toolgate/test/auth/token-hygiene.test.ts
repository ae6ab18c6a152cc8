import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newProbeLedger, probeReader, probeTools } from '../../../../test/gateway/probe-tools.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { REDACTED_PATHS } from '../../src/telemetry/logger.ts';

let gw: StartedGateway;
const lines: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
  gw = await startGateway({
    modules: [],
    tools: probeTools(newProbeLedger()),
    principals: [probeReader],
    logger,
  });
});
afterAll(() => gw.close());

test('neither accepted nor refused tokens appear in the logs', async () => {
  const good = await gw.tokenFor('probe_reader');
  const expired = await gw.tokenFor('probe_reader', { ttlSeconds: -600 });
  for (const token of [good, expired]) {
    await fetch(gw.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'probe_throw', arguments: { text: 'x' } },
      }),
    });
  }
  const log = lines.join('');
  expect(log).toContain('token expired');
  expect(log).toContain('tool handler threw');
  for (const token of [good, expired]) {
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split('.')[2]);
  }
});
