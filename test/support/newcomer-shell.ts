import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Variables bash sets for itself: they do not carry from one line to the next. */
const OWN = /^(BASH.*|SHLVL|_|OLDPWD|PWD|SHELLOPTS|PPID|UID|EUID|__rc)$/;

export interface LineResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly output: string;
}

export interface Background {
  /** The first match of `ready` in what it printed. */
  readonly match: RegExpMatchArray;
  output(): string;
  stop(): Promise<void>;
}

/**
 * A newcomer's terminal: each line runs in bash as it is typed, and what it changes (a `cd`, a
 * `TOKEN=$(...)`, an export) carries to the next line, as it does in one shell session.
 */
export class Shell {
  #count = 0;

  constructor(
    public cwd: string,
    readonly env: Record<string, string>,
    private readonly scratch: string,
  ) {}

  run(line: string, timeoutMs = 300_000): LineResult {
    this.#count += 1;
    const envFile = join(this.scratch, `env-${process.pid}-${this.#count}`);
    const script = `set -a\n${line}\n__rc=$?\nenv -0 > ${JSON.stringify(envFile)}\nexit $__rc\n`;
    const done = spawnSync('bash', ['-c', script], {
      cwd: this.cwd,
      env: this.env,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (existsSync(envFile)) {
      for (const pair of readFileSync(envFile, 'utf8').split('\0')) {
        const at = pair.indexOf('=');
        if (at <= 0) continue;
        const name = pair.slice(0, at);
        if (name === 'PWD') this.cwd = pair.slice(at + 1);
        else if (!OWN.test(name)) this.env[name] = pair.slice(at + 1);
      }
      rmSync(envFile);
    }
    return { code: done.status, stdout: done.stdout, output: `${done.stdout}${done.stderr}` };
  }

  /** A line that keeps running (a server in a terminal of its own): started, and awaited until `ready`. */
  start(line: string, ready: RegExp, timeoutMs = 300_000): Promise<Background> {
    const child: ChildProcess = spawn('bash', ['-c', line], {
      cwd: this.cwd,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let printed = '';
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // The whole group: npm, the shell and the server they started.
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        void stop();
        reject(new Error(`not ready within ${timeoutMs} ms: ${line}\n${printed}`));
      }, timeoutMs);
      const seen = (chunk: Buffer) => {
        printed += chunk.toString();
        const match = printed.match(ready);
        if (!match) return;
        clearTimeout(timer);
        child.stdout?.off('data', seen);
        child.stderr?.off('data', seen);
        child.stdout?.on('data', (more: Buffer) => (printed += more.toString()));
        child.stderr?.on('data', (more: Buffer) => (printed += more.toString()));
        resolve({ match, output: () => printed, stop });
      };
      child.stdout?.on('data', seen);
      child.stderr?.on('data', seen);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code} before it was ready: ${line}\n${printed}`));
      });
    });
  }
}

/**
 * The shell recipes of a Markdown file: every line of its `sh`/`bash` blocks, continuations joined,
 * comments left out (a whole-line comment, or `  # ...` after a command).
 */
export function shellRecipes(markdown: string): string[] {
  const recipes: string[] = [];
  for (const [, block] of markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    const joined = block!.replace(/\\\n\s*/g, '');
    for (const raw of joined.split('\n')) {
      const line = raw.replace(/\s+#\s.*$/, '').trim();
      if (line !== '' && !line.startsWith('#')) recipes.push(line);
    }
  }
  return recipes;
}
