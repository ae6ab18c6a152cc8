import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Server time of tools/call requests whose `arguments` carry about 1 MB of unknown keys, sent by a
 * token without the tool's scope, against a real `toolgate serve`: what one such caller costs the
 * gateway, and what a normal caller's read costs meanwhile. Run: node --import tsx bench/oversized-arguments.ts
 */
const CLI = join(import.meta.dirname, '../bin/toolgate.mjs');
const ROUNDS = Number(process.env.ROUNDS ?? 20);

function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
  });
}

function post(
  url: string,
  token: string,
  body: string,
): Promise<{ status: number; ms: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'toolgate-oversized-'));
const extra = (process.env.SERVE_ARGS ?? '').split(' ').filter(Boolean);
const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dir, ...extra], {
  env: { ...process.env, TOOLGATE_LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve) => {
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
    const found = /MCP Streamable HTTP at (\S+)/.exec(out)?.[1];
    if (found) resolve(found);
  });
});
try {
  const mint = (sub: string, scopes: string) =>
    run([
      'token',
      '--sub',
      sub,
      '--tenant',
      'acme',
      '--actor',
      'customer',
      '--scopes',
      scopes,
      '--data-dir',
      dir,
      '--audience',
      url,
    ]);
  const scopeless = await mint('scopeless', '');
  const reader = await mint('reader', 'orders:read');
  const args: Record<string, string | number> = {};
  // Just under the 1 MiB body limit: every key is unknown to the tool.
  // SHAPE=short: about 100,000 short keys instead of about 31,000 longer ones.
  const short = process.env.SHAPE === 'short';
  for (let i = 0, size = 0; size < 1_000_000; i++) {
    const name = short ? `k${i}` : `unknown_key_${i}`;
    args[name] = short ? 0 : 'xxxxxxxxxx';
    size += name.length + (short ? 5 : 16);
  }
  const heavy = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'orders_get', arguments: args },
  });
  const light = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'orders_get', arguments: { order_id: `ord_${'0'.repeat(32)}` } },
  });
  console.log(`body ${(heavy.length / 1024).toFixed(0)} KiB, ${Object.keys(args).length} keys`);
  const first = await post(url, scopeless, heavy);
  console.log(`answer ${first.status}: ${first.text.slice(0, 300)}`);
  const alone: number[] = [];
  for (let i = 0; i < ROUNDS; i++) alone.push((await post(url, scopeless, heavy)).ms);
  // The same size in one string value: what reading and answering a 1 MB body costs by itself.
  const plain = JSON.stringify({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'orders_get', arguments: { note: 'x'.repeat(heavy.length - 100) } },
  });
  const control: number[] = [];
  for (let i = 0; i < ROUNDS; i++) control.push((await post(url, scopeless, plain)).ms);
  const scoped: number[] = [];
  for (let i = 0; i < ROUNDS; i++) scoped.push((await post(url, reader, heavy)).ms);
  const quiet: number[] = [];
  for (let i = 0; i < ROUNDS; i++) quiet.push((await post(url, reader, light)).ms);
  // Two oversized callers in a loop while a normal caller reads.
  let running = true;
  const flood = async () => {
    while (running) await post(url, scopeless, heavy);
  };
  const floods = [flood(), flood()];
  const loaded: number[] = [];
  for (let i = 0; i < ROUNDS; i++) loaded.push((await post(url, reader, light)).ms);
  running = false;
  await Promise.all(floods);
  // Two callers sending four listings per POST in a loop (each under its own token) while a normal
  // caller reads: what a small request asking for a large answer costs the others.
  const listers = [await mint('lister-a', 'orders:read'), await mint('lister-b', 'orders:read')];
  const batch = JSON.stringify(
    Array.from({ length: 4 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
  );
  const statuses = new Map<number, number>();
  let listing = true;
  const list = async (token: string) => {
    while (listing) {
      const { status } = await post(url, token, batch);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const lists = listers.map(list);
  const beside: number[] = [];
  for (let i = 0; i < ROUNDS; i++) beside.push((await post(url, reader, light)).ms);
  listing = false;
  await Promise.all(lists);
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
  console.log(`oversized scope-less tools/call p50 ${p50(alone)} ms`);
  console.log(`the same size in one string value p50 ${p50(control)} ms`);
  console.log(`oversized tools/call by a caller holding the scope p50 ${p50(scoped)} ms`);
  console.log(`normal read p50 ${p50(quiet)} ms alone, ${p50(loaded)} ms beside two oversized callers`);
  console.log(
    `normal read p50 ${p50(beside)} ms beside two callers of 4x tools/list (their answers: ${[...statuses]
      .map(([status, n]) => `${n} x ${status}`)
      .join(', ')})`,
  );
} finally {
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
