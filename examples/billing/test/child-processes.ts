import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const EXAMPLE_DIR = join(import.meta.dirname, '..');
// The installed package's command, as in a copy of this example (here node_modules/toolgate links the repo).
const TOOLGATE_CLI = join(EXAMPLE_DIR, 'node_modules/toolgate/bin/toolgate.mjs');
const SERVICE_ENTRY = join(EXAMPLE_DIR, 'service/server.ts');
const CONFIG_FILE = join(EXAMPLE_DIR, 'toolgate.config.ts');

/** A started child process and everything it printed so far. */
export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within a second; resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown code runs, exactly like a crash. */
  kill(): Promise<void>;
}

/**
 * Spawns `node args…` and resolves once stdout shows `ready` (its first capture group is the URL).
 * Fails with the child's output when it exits or stays silent past the deadline.
 */
async function startChild(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs: number) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, cwd: EXAMPLE_DIR });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`not ready within ${timeoutMs} ms`), timeoutMs);
    const check = () => {
      const found = ready.exec(output)?.[1];
      if (found) done(() => resolve(found));
    };
    const fail = (why: string) => done(() => reject(new Error(`${args.join(' ')}: ${why}\n${output}`)));
    const done = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      settle();
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => fail(`exited with ${code}`));
    child.once('error', (error) => fail(error.message));
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    child,
    url,
    output: () => output,
    kill: () => signal('SIGKILL'),
    async stop() {
      const force = setTimeout(() => child.kill('SIGKILL'), 1_000);
      await signal('SIGTERM');
      clearTimeout(force);
    },
  } satisfies Started;
}

export interface ServiceOptions {
  readonly dbFile: string;
  /** 0 for any free port; give the old port to restart in place. */
  readonly port?: number;
  readonly pauseAfterCommitMs?: number;
  /** Serve POST /admin/reset (BILLING_ENABLE_RESET=1), as an evaluation instance does. */
  readonly enableReset?: boolean;
}

/** The billing service as its own process: `node examples/billing/service/server.ts`. */
export function startBillingService(options: ServiceOptions): Promise<Started> {
  const env = {
    BILLING_DB: options.dbFile,
    PORT: String(options.port ?? 0),
    BILLING_PAUSE_AFTER_COMMIT_MS: String(options.pauseAfterCommitMs ?? 0),
    BILLING_ENABLE_RESET: options.enableReset ? '1' : '0',
  };
  return startChild([SERVICE_ENTRY], env, /^listening on (http:\/\/\S+)$/m, 10_000);
}

/** The gateway serving examples/billing/toolgate.config.ts, reaching the service at `billingUrl`. */
export function startGateway(dataDir: string, billingUrl: string): Promise<Started> {
  const args = [
    TOOLGATE_CLI,
    'serve',
    '--config',
    CONFIG_FILE,
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--no-seed',
  ];
  const env = { BILLING_URL: billingUrl, BILLING_RECONCILE_FAST: '1', TOOLGATE_LOG_LEVEL: 'warn' };
  return startChild(args, env, /(http:\/\/127\.0\.0\.1:\d+\/mcp)\b/, 30_000);
}

/** A dev token for `subject` that the gateway with this data dir accepts at `audience`. */
export async function mintToken(
  dataDir: string,
  audience: string,
  scopes: readonly string[],
): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    TOOLGATE_CLI,
    'token',
    ...['--sub', 'cus_acme_alice', '--tenant', 'acme', '--actor', 'customer'],
    ...['--scopes', scopes.join(' '), '--data-dir', dataDir, '--audience', audience],
  ]);
  return stdout.trim();
}

/** What a finished command printed, and its exit code. */
export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the installed `toolgate` command to its end; a non-zero exit is a result, not an exception. */
export async function runToolgate(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [TOOLGATE_CLI, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
