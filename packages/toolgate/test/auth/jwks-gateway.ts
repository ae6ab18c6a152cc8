import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import {
  newProbeLedger,
  type ProbeLedger,
  probeReader,
  probeTools,
} from '../../../../test/gateway/probe-tools.ts';
import { postToolCall } from '../../../../test/support/post-tool-call.ts';
import { testToolsDomain } from '../../../../test/support/start-gateway.ts';
import { createApp } from '../../src/app/create-app.ts';
import { startHttpTransport } from '../../src/transport/http-server.ts';
import type { LocalIssuer } from './local-issuer.ts';

/** A gateway serving the probe tools that verifies tokens with a local issuer's JWKS, as `--jwks-url` does. */
export interface JwksGateway {
  readonly url: string;
  readonly ledger: ProbeLedger;
  /** One probe_echo call with this bearer token. */
  call(token: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startJwksGateway(
  issuer: LocalIssuer,
  options: { readonly requireTokenType?: boolean } = {},
): Promise<JwksGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-jwks-'));
  const ledger = newProbeLedger();
  const app = await createApp({
    dataDir,
    logger: pino({ level: process.env.TOOLGATE_TEST_LOG_LEVEL ?? 'silent' }),
    backgroundJobs: false,
    modules: [testToolsDomain(probeTools(ledger), [probeReader])],
  });
  const http = await startHttpTransport(app, {
    port: 0,
    keys: {
      kind: 'jwks',
      jwksUrl: issuer.jwksUrl,
      issuer: issuer.issuer,
      ...(options.requireTokenType === undefined ? {} : { requireTokenType: options.requireTokenType }),
    },
  });
  return {
    url: http.url,
    ledger,
    call: (token) => postToolCall(http.url, token, 'probe_echo', { text: 'a' }),
    async close() {
      try {
        await http.close();
        await app.close();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
