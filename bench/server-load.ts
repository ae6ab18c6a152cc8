import { fork } from 'node:child_process';
import { type CallLoadResult, runCallLoad } from './call-load.ts';
import { answeredOk, probe } from './load-case.ts';
import type { JsonRpcCall, RequestShape } from './request-shape.ts';

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
  /** The protocol revision the calls speak. */
  readonly shape: RequestShape;
}

/** A forked bench server: what it announced over IPC, its process id (for CPU time), and how to stop it. */
export interface BenchServer {
  readonly announcement: Record<string, unknown>;
  readonly pid: number;
  stop(): void;
}

/**
 * Forks a bench server (a small TypeScript script that announces itself over IPC) and waits for its
 * announcement. Node strips the script's types itself, without tsx: the server under load runs the
 * compiled package in dist/, as users run it, not a transpile-on-load hook.
 */
export async function startBenchServer(script: string, args: readonly string[]): Promise<BenchServer> {
  const child = fork(script, [...args], {
    // Type stripping is on by default from Node 22.18; the flag keeps 22.12-22.17 (engines) working.
    execArgv: ['--experimental-strip-types'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () => {
    child.kill('SIGKILL');
  };
  try {
    const announcement = await new Promise<Record<string, unknown>>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Record<string, unknown>));
      child.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    });
    if (child.pid === undefined) throw new Error('bench server has no process id');
    return { announcement, pid: child.pid, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/**
 * Forks a bench server, checks one answer, runs the load against it and stops it. Throws when the
 * sample answer is wrong or any call failed: a rate over failed calls would flatter the server.
 */
export async function serverLoad(
  script: string,
  args: readonly string[],
  target: (announcement: Record<string, unknown>) => Promise<LoadTarget>,
  toolCall: (i: number) => { name: string; arguments: Record<string, unknown> },
  options: ServerLoadOptions,
): Promise<CallLoadResult> {
  const server = await startBenchServer(script, args);
  try {
    const { url, token } = await target(server.announcement);
    const call = (i: number): JsonRpcCall => ({ method: 'tools/call', params: toolCall(i) });
    // One whole answer first (call number -1): not a tool error, and of the revision asked for.
    await probe({ name: url, url, token, shape: options.shape, request: call, check: answeredOk });
    const load = await runCallLoad({
      url,
      token,
      warmup: { calls: options.warmupCalls },
      measured: { calls: options.calls },
      concurrency: options.concurrency,
      shape: options.shape,
      call,
    });
    if (load.failures > 0) throw new Error(`${load.failures} of ${options.calls} calls to ${url} failed`);
    return load;
  } finally {
    server.stop();
  }
}
