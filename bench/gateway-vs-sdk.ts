import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchMeasure } from './bench-section.ts';
import type { CallLoadResult } from './call-load.ts';
import { serverLoad } from './server-load.ts';

export interface GatewayVsSdkOptions {
  readonly calls?: number;
  readonly concurrency?: number;
}

const SERVER = fileURLToPath(new URL('./noop-server.ts', import.meta.url));

/** Starts one server process, drives the fixed load against it, and stops it. */
async function measure(
  mode: 'gateway' | 'sdk',
  options: Required<GatewayVsSdkOptions>,
): Promise<CallLoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-noop-'));
  try {
    return await serverLoad(
      SERVER,
      [mode, dataDir],
      async (m) => ({ url: String(m.url), token: typeof m.token === 'string' ? m.token : null }),
      () => ({ name: 'bench_noop', arguments: {} }),
      { ...options, warmupCalls: Math.min(2_000, Math.ceil(options.calls / 5)) },
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A no-op read tool through the whole gateway (HTTP, bearer token, pipeline, envelope, metrics,
 * logs) against the bare SDK's stateless Streamable HTTP with the same tool, under the same load.
 * Target: the gateway at least 2x the bare SDK's calls/s.
 */
export async function gatewayVsSdkBench(input: GatewayVsSdkOptions = {}): Promise<BenchMeasure[]> {
  const options = {
    calls: input.calls ?? Number(process.env.BENCH_CALLS ?? 20_000),
    concurrency: input.concurrency ?? Number(process.env.BENCH_CONCURRENCY ?? 32),
  };
  const sdk = await measure('sdk', options);
  const gateway = await measure('gateway', options);
  const rows = (label: string, r: CallLoadResult): BenchMeasure[] => [
    { name: `${label}: calls/s`, value: r.callsPerSecond, unit: 'calls/s' },
    { name: `${label}: p50`, value: r.p50Ms, unit: 'ms' },
    { name: `${label}: p99`, value: r.p99Ms, unit: 'ms' },
  ];
  return [
    ...rows('gateway no-op (HTTP + token + pipeline)', gateway),
    ...rows('bare SDK no-op (stateless, server per request)', sdk),
    {
      name: `gateway / bare SDK throughput (target >= 2)`,
      value: gateway.callsPerSecond / sdk.callsPerSecond,
      unit: 'x',
    },
    {
      name: `load: ${options.calls} calls, ${options.concurrency} keep-alive connections`,
      value: options.calls,
      unit: 'calls',
    },
  ];
}
