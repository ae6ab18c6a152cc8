import type { HttpTransportOptions } from 'toolgate/server';
import { newProbeLedger, type ProbeLedger, probeReader, probeTools } from '../gateway/probe-tools.ts';
import { type StartedGateway, startGateway } from './start-gateway.ts';

/** A gateway serving only the probe tools, what they did, and the headers of a raw MCP POST as the probe reader. */
export interface ProbeGateway {
  readonly gw: StartedGateway;
  readonly ledger: ProbeLedger;
  readonly headers: Record<string, string>;
}

export async function startProbeGateway(
  http: Partial<Pick<HttpTransportOptions, 'bodyLimitBytes' | 'toolsPageSize'>> = {},
): Promise<ProbeGateway> {
  const ledger = newProbeLedger();
  const gw = await startGateway({ modules: [], tools: probeTools(ledger), principals: [probeReader], http });
  const headers = {
    authorization: `Bearer ${await gw.tokenFor('probe_reader')}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  return { gw, ledger, headers };
}
