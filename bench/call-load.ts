import { Agent, request } from 'node:http';
import { processCpuMicros } from './process-cpu.ts';
import type { JsonRpcCall, RequestShape } from './request-shape.ts';

/** When a phase of the load ends: after a number of calls, or after a time. */
export type LoadPhase = { readonly calls: number } | { readonly ms: number };

export interface CallLoadOptions {
  readonly url: string;
  readonly token: string | null;
  /** Calls before the measured phase, not measured. */
  readonly warmup: LoadPhase;
  readonly measured: LoadPhase;
  /** Keep-alive connections, each with one call in flight. */
  readonly concurrency: number;
  /** The protocol revision's wire form of every call: its headers and its body. */
  readonly shape: RequestShape;
  /** The JSON-RPC call to post, a function of the call number (e.g. a new key per call). */
  readonly call: (i: number) => JsonRpcCall;
  /** The server's process id, to measure its CPU time over the measured phase (Linux /proc). */
  readonly serverPid?: number;
}

export interface CallLoadResult {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failures: number;
  /** Server CPU time (user + system) over the measured phase divided by its calls; null without serverPid. */
  readonly cpuMicrosPerCall: number | null;
  /** The load generator's own CPU time per call; when it nears 1e6 / callsPerSecond, the generator is the bottleneck. */
  readonly loadCpuMicrosPerCall: number;
}

/** How much of an answer the generator reads: enough for the JSON-RPC members before the result. */
const HEAD_BYTES = 96;
/** How much of an answer's end the generator keeps: enough for a result's closing `isError` member. */
const TAIL_BYTES = 160;

/** A JSON-RPC result, not an error: `"result":` in the head and no top-level `"error":` before it. */
function answeredResult(head: string): boolean {
  const result = head.indexOf('"result":');
  const error = head.indexOf('"error":');
  return result !== -1 && (error === -1 || error > result);
}

/**
 * A closed-loop load generator for MCP over HTTP: `concurrency` keep-alive connections on loopback
 * each post one JSON-RPC request at a time until a fixed number of calls is done or a fixed time has
 * passed. Latency is per call, from write to the end of the answer. A call fails unless it answers
 * 200 with a JSON-RPC result (judged from the answer's head) that is not a tool error (from its tail):
 * a rate over refused calls would flatter the server.
 */
export async function runCallLoad(options: CallLoadOptions): Promise<CallLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const url = new URL(options.url);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const { shape } = options;
  let sequence = 0;
  const once = () =>
    new Promise<boolean>((resolve) => {
      const id = sequence++;
      const call = options.call(id);
      const body = shape.body(id, call);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: { ...headers, ...shape.headers(call), 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          // Only the head of the answer is read: decoding a large answer (a 1,000-tool listing) would
          // make the generator, not the server, the bottleneck. Each case's probe checks a whole answer.
          // Its tail too: a tool error is a JSON-RPC result whose last member says `"isError":true`.
          let head = '';
          let tail = '';
          res.on('data', (chunk: Buffer) => {
            if (head.length < HEAD_BYTES) head += chunk.toString('latin1', 0, HEAD_BYTES - head.length);
            tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - TAIL_BYTES))).slice(
              -TAIL_BYTES,
            );
          });
          res.on('end', () =>
            resolve(res.statusCode === 200 && answeredResult(head) && !tail.includes('"isError":true')),
          );
        },
      );
      req.on('error', () => resolve(false));
      req.end(body);
    });
  const drive = async (end: LoadPhase, latencies: number[] | null) => {
    let issued = 0;
    let failures = 0;
    const stopAt = 'ms' in end ? performance.now() + end.ms : Number.POSITIVE_INFINITY;
    const more = () => ('calls' in end ? issued < end.calls : performance.now() < stopAt);
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (more()) {
          issued += 1;
          const started = performance.now();
          if (!(await once())) failures += 1;
          latencies?.push(performance.now() - started);
        }
      }),
    );
    return failures;
  };
  await drive(options.warmup, null);
  const latencies: number[] = [];
  const pid = options.serverPid;
  const cpuBefore = pid === undefined ? 0 : processCpuMicros(pid);
  const loadCpuBefore = process.cpuUsage();
  const started = performance.now();
  const failures = await drive(options.measured, latencies);
  const seconds = (performance.now() - started) / 1000;
  const loadCpu = process.cpuUsage(loadCpuBefore);
  const cpuMicros = pid === undefined ? null : processCpuMicros(pid) - cpuBefore;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    callsPerSecond: latencies.length / seconds,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    failures,
    cpuMicrosPerCall: cpuMicros === null ? null : cpuMicros / Math.max(1, latencies.length),
    loadCpuMicrosPerCall: (loadCpu.user + loadCpu.system) / Math.max(1, latencies.length),
  };
}
