export interface HttpLoadOptions {
  readonly url: string;
  readonly token?: string;
  readonly durationMs: number;
  readonly concurrency: number;
  /** The tools/call params of request number i. */
  readonly toolCall: (i: number) => { name: string; arguments: Record<string, unknown> };
}

export interface HttpLoad {
  readonly callsPerSecond: number;
  readonly calls: number;
  /** Calls that did not answer HTTP 200 with a JSON-RPC result that is not an error result. */
  readonly failures: number;
}

/**
 * A small closed-loop load generator for MCP Streamable HTTP: `concurrency` loops each POST one
 * tools/call at a time (JSON answers, keep-alive) for `durationMs`, after a short warm-up. Bounded in
 * time and aimed only at the loopback server the benchmark started.
 */
export async function httpLoad(options: HttpLoadOptions): Promise<HttpLoad> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let seq = 0;
  const once = async (): Promise<boolean> => {
    const i = seq++;
    const response = await fetch(options.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: options.toolCall(i) }),
    });
    const text = await response.text();
    if (response.status !== 200) return false;
    const body = JSON.parse(text) as { result?: { isError?: boolean } };
    return body.result !== undefined && body.result.isError !== true;
  };
  const loop = async (until: number, tally: { calls: number; failures: number }) => {
    while (performance.now() < until) {
      const ok = await once().catch(() => false);
      tally.calls += 1;
      if (!ok) tally.failures += 1;
    }
  };
  const warm = { calls: 0, failures: 0 };
  const warmUntil = performance.now() + Math.min(500, options.durationMs / 4);
  await Promise.all(Array.from({ length: options.concurrency }, () => loop(warmUntil, warm)));
  const tally = { calls: 0, failures: warm.failures };
  const started = performance.now();
  const until = started + options.durationMs;
  await Promise.all(Array.from({ length: options.concurrency }, () => loop(until, tally)));
  const seconds = (performance.now() - started) / 1000;
  return { callsPerSecond: tally.calls / seconds, calls: tally.calls, failures: tally.failures };
}
