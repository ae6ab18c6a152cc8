import { fork } from 'node:child_process';
import { type CallLoadResult, runCallLoad } from './call-load.ts';

/** A server process under load: where to send calls, and the bearer token it wants (if any). */
export interface LoadTarget {
  readonly url: string;
  readonly token: string | null;
}

export interface ServerLoadOptions {
  /** Measured calls (after the warm-up). */
  readonly calls: number;
  readonly warmupCalls: number;
  /** Keep-alive connections, each with one call in flight. */
  readonly concurrency: number;
}

/**
 * Forks a bench server (a tsx script that announces itself over IPC), runs the load against it and
 * stops it. Throws when any call failed: a rate over failed calls would flatter the server.
 */
export async function serverLoad(
  script: string,
  args: readonly string[],
  target: (announcement: Record<string, unknown>) => Promise<LoadTarget>,
  toolCall: (i: number) => { name: string; arguments: Record<string, unknown> },
  options: ServerLoadOptions,
): Promise<CallLoadResult> {
  const child = fork(script, [...args], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const announcement = await new Promise<Record<string, unknown>>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Record<string, unknown>));
      child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    });
    const { url, token } = await target(announcement);
    const load = await runCallLoad({
      url,
      token,
      calls: options.calls,
      warmupCalls: options.warmupCalls,
      concurrency: options.concurrency,
      body: (i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: toolCall(i) }),
    });
    if (load.failures > 0) throw new Error(`${load.failures} of ${options.calls} calls to ${url} failed`);
    return load;
  } finally {
    child.kill('SIGKILL');
  }
}
