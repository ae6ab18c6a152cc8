import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a `toolgate` command line to its end; a non-zero exit is a result, not an exception. */
export async function runCommand(
  bin: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export interface ServingProcess {
  readonly child: ChildProcess;
  /** The MCP endpoint the banner printed. */
  readonly url: string;
  output(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `toolgate serve ...` as a child process and waits until its banner names the MCP URL. */
export async function startServing(
  bin: string,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ServingProcess> {
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    cwd: options.cwd,
    env: { ...process.env, TOOLGATE_LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve printed no URL:\n${output}`)),
      options.timeoutMs ?? 20_000,
    );
    const look = () => {
      const found = /MCP Streamable HTTP at (\S+)/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', look);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`serve exited before serving:\n${output}`));
    });
  });
  return {
    child,
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** An MCP SDK client connected to `url`, sending the token the `toolgate token` command printed. */
export async function connectWithToken(url: string, printedToken: string): Promise<Client> {
  const client = new Client({ name: 'toolgate-cli-test', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${printedToken.trim()}` } },
    }),
  );
  return client;
}
