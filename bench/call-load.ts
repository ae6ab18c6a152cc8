import { Agent, request } from 'node:http';

export interface CallLoadOptions {
  readonly url: string;
  readonly token: string | null;
  /** Measured calls (after the warm-up). */
  readonly calls: number;
  readonly warmupCalls: number;
  /** Keep-alive connections, each with one call in flight. */
  readonly concurrency: number;
  /** The JSON-RPC request to post, or a function of the call number (e.g. a new key per call). */
  readonly body: string | ((i: number) => string);
}

export interface CallLoadResult {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly failures: number;
}

/**
 * A closed-loop load generator for MCP over HTTP: `concurrency` keep-alive connections on loopback
 * each post one tools/call at a time until a fixed number of calls is done. Latency is per call,
 * from write to the end of the answer. A call fails unless it answers 200 with a JSON-RPC result.
 */
export async function runCallLoad(options: CallLoadOptions): Promise<CallLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const url = new URL(options.url);
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const bodyOf = typeof options.body === 'string' ? () => options.body as string : options.body;
  let sequence = 0;
  const once = () =>
    new Promise<boolean>((resolve) => {
      const body = bodyOf(sequence++);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve(res.statusCode === 200 && text.includes('"result"')));
        },
      );
      req.on('error', () => resolve(false));
      req.end(body);
    });
  const drive = async (total: number, latencies: number[] | null) => {
    let issued = 0;
    let failures = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (issued < total) {
          issued += 1;
          const started = performance.now();
          if (!(await once())) failures += 1;
          latencies?.push(performance.now() - started);
        }
      }),
    );
    return failures;
  };
  await drive(options.warmupCalls, null);
  const latencies: number[] = [];
  const started = performance.now();
  const failures = await drive(options.calls, latencies);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { callsPerSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99), failures };
}
