import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { freePort } from '../support/free-port.ts';

export const OPS_DIR = resolve(import.meta.dirname, '../../packages/toolgate/ops');
export const ALERT_RULES = join(OPS_DIR, 'prometheus/toolgate-alerts.yml');
export const DASHBOARD = join(OPS_DIR, 'grafana/toolgate-dashboard.json');

/** The path of a binary on PATH, or null (`.ci/ensure-prometheus.sh` installs Debian's prometheus). */
export function binary(name: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export interface AlertRule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/** Every alert rule of the shipped file. */
export function shippedAlerts(): AlertRule[] {
  const doc = parse(readFileSync(ALERT_RULES, 'utf8')) as { groups: { rules: AlertRule[] }[] };
  return doc.groups.flatMap((g) => g.rules);
}

export interface RunningPrometheus {
  readonly origin: string;
  /** GET /api/v1/<path> and its `data`. */
  api<T>(path: string): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts a real Prometheus in a temp dir on a free loopback port, scraping `target` (host:port) as job
 * `toolgate` every second and evaluating `rulesText` every second. Answers once it is ready.
 */
export async function startPrometheus(target: string, rulesText: string): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-prometheus-'));
  writeFileSync(join(dir, 'rules.yml'), rulesText);
  writeFileSync(
    join(dir, 'prometheus.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files: [rules.yml]',
      'scrape_configs:',
      '  - job_name: toolgate',
      `    static_configs: [{ targets: ["${target}"] }]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    binary('prometheus') ?? 'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`prometheus exited: ${log}`);
    }
    const ready = await fetch(`${origin}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (i > 300) {
      await stop();
      throw new Error(`prometheus did not become ready: ${log}`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return {
    origin,
    async api<T>(path: string): Promise<T> {
      const res = await fetch(`${origin}/api/v1/${path}`);
      const body = (await res.json()) as { status: string; data: T; error?: string };
      if (body.status !== 'success') throw new Error(`${path}: ${body.error}`);
      return body.data;
    },
    stop,
  };
}

/** Polls `check` every 100 ms until it holds; throws naming `what` after 20 s (for hooks, where expect.poll is not available). */
export async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}
