import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchMeasure } from './bench-section.ts';
import type { CallLoadResult } from './call-load.ts';
import { legacyShape, modernShape, type RequestShape } from './request-shape.ts';
import { serverLoad } from './server-load.ts';

export interface GatewayVsSdkOptions {
  readonly calls?: number;
  readonly concurrency?: number;
}

const SERVER = fileURLToPath(new URL('./noop-server.ts', import.meta.url));

/** Starts one server process, drives the fixed load of one revision against it, and stops it. */
async function measure(
  mode: 'gateway' | 'sdk' | 'sdk-v2',
  shape: RequestShape,
  options: Required<GatewayVsSdkOptions>,
): Promise<CallLoadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-noop-'));
  try {
    return await serverLoad(
      SERVER,
      [mode, dataDir],
      async (m) => ({ url: String(m.url), token: typeof m.token === 'string' ? m.token : null }),
      () => ({ name: 'bench_noop', arguments: {} }),
      { ...options, shape, warmupCalls: Math.min(2_000, Math.ceil(options.calls / 5)) },
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A no-op read tool through the whole gateway (HTTP, bearer token, pipeline, envelope, metrics,
 * logs) against the bare SDK's stateless Streamable HTTP with the same tool, under the same load, on
 * 2025-11-25 (the v1 SDK) and on 2026-07-28 (the v2 SDK's `createMcpHandler`). Target: the 2025
 * gateway at least 2x the bare v1 SDK's calls/s. The servers run one after another (no rounds), so the
 * two-revision targets with ratios taken within a round are the fair-anchors section's; the 2026/2025
 * ratio here is shown beside them, without a target.
 */
export async function gatewayVsSdkBench(input: GatewayVsSdkOptions = {}): Promise<BenchMeasure[]> {
  const options = {
    calls: input.calls ?? Number(process.env.BENCH_CALLS ?? 20_000),
    concurrency: input.concurrency ?? Number(process.env.BENCH_CONCURRENCY ?? 32),
  };
  const sdk = await measure('sdk', legacyShape, options);
  const sdkV2 = await measure('sdk-v2', modernShape, options);
  const gateway = await measure('gateway', legacyShape, options);
  const modern = await measure('gateway', modernShape, options);
  const rows = (label: string, r: CallLoadResult): BenchMeasure[] => [
    { name: `${label}: calls/s`, value: r.callsPerSecond, unit: 'calls/s' },
    { name: `${label}: p50`, value: r.p50Ms, unit: 'ms' },
    { name: `${label}: p99`, value: r.p99Ms, unit: 'ms' },
  ];
  return [
    ...rows('gateway no-op, 2025-11-25 (HTTP + token + pipeline)', gateway),
    ...rows('gateway no-op, 2026-07-28 (HTTP + token + pipeline)', modern),
    ...rows('bare SDK no-op (stateless, server per request)', sdk),
    ...rows('bare SDK v2 no-op, 2026-07-28 (createMcpHandler)', sdkV2),
    {
      name: `gateway / bare SDK throughput (target >= 2)`,
      value: gateway.callsPerSecond / sdk.callsPerSecond,
      unit: 'x',
    },
    {
      name: 'gateway 2026-07-28 / bare SDK v2 throughput',
      value: modern.callsPerSecond / sdkV2.callsPerSecond,
      unit: 'x',
    },
    {
      name: 'gateway no-op 2026-07-28 / 2025-11-25 throughput',
      value: modern.callsPerSecond / gateway.callsPerSecond,
      unit: 'x',
    },
    {
      name: `load: ${options.calls} calls, ${options.concurrency} keep-alive connections`,
      value: options.calls,
      unit: 'calls',
    },
  ];
}
