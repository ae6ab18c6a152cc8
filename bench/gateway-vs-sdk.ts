import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchMeasure } from './bench-section.ts';
import { type CallLoadResult, runCallLoad } from './call-load.ts';

export interface GatewayVsSdkOptions {
  readonly calls?: number;
  readonly concurrency?: number;
}

const SERVER = fileURLToPath(new URL('./noop-server.ts', import.meta.url));
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'bench_noop', arguments: {} },
});

/** Starts one server process, drives the fixed load against it, and stops it. */
async function measure(
  mode: 'gateway' | 'sdk',
  options: Required<GatewayVsSdkOptions>,
): Promise<CallLoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-noop-'));
  const child = fork(SERVER, [mode, dataDir], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  try {
    const target = await new Promise<{ url: string; token: string | null }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { url: string; token: string | null }));
      child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    });
    return await runCallLoad({
      url: target.url,
      token: target.token,
      calls: options.calls,
      warmupCalls: Math.min(2_000, Math.ceil(options.calls / 5)),
      concurrency: options.concurrency,
      body: CALL,
    });
  } finally {
    child.kill('SIGKILL');
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
  for (const [name, result] of [
    ['sdk', sdk],
    ['gateway', gateway],
  ] as const) {
    if (result.failures > 0) throw new Error(`${result.failures} ${name} calls failed`);
  }
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
