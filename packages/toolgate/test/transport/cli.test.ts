import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTokenVerifier } from '../../src/auth/token-verifier.ts';

const CLI = join(import.meta.dirname, '../../../../bin/toolgate.mjs');
const run = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } }).catch(
    (e: unknown) => e as { code: number; stdout: string; stderr: string },
  );

describe('the toolgate command', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('token prints only a JWT that a server with the same data dir accepts', async () => {
    const dataDir = join(dir, 'tokens');
    const result = await run([
      'token',
      '--sub',
      'u7',
      '--tenant',
      't7',
      '--actor',
      'customer',
      '--scopes',
      'orders:read orders:write',
      '--data-dir',
      dataDir,
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const verifier = await createTokenVerifier({ kind: 'dev', dataDir }, 'http://127.0.0.1:8787/mcp');
    const verdict = await verifier.verify(result.stdout.trim());
    if (!verdict.ok) throw new Error(verdict.detail);
    expect(verdict.principal).toMatchObject({ subject: 'u7', tenant: 't7', actor: 'customer' });
    expect([...verdict.principal.scopes]).toEqual(['orders:read', 'orders:write']);
  });

  test('token --port mints for the server on that port, and a bad port is named', async () => {
    const dataDir = join(dir, 'port');
    const args = ['token', '--sub', 'u8', '--tenant', 't8', '--actor', 'customer', '--data-dir', dataDir];
    const result = await run([...args, '--port', '9911']);
    expect(result.stderr).toBe('');
    const onPort = await createTokenVerifier({ kind: 'dev', dataDir }, 'http://127.0.0.1:9911/mcp');
    expect((await onPort.verify(result.stdout.trim())).ok).toBe(true);
    const onDefault = await createTokenVerifier({ kind: 'dev', dataDir }, 'http://127.0.0.1:8787/mcp');
    expect((await onDefault.verify(result.stdout.trim())).ok).toBe(false);
    const bad = (await run([...args, '--port', '0'])) as { code: number; stdout: string; stderr: string };
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('--port');
  });

  test('token refuses an unknown actor, naming the option', async () => {
    const result = (await run([
      'token',
      '--sub',
      'u',
      '--tenant',
      't',
      '--actor',
      'admin',
      '--data-dir',
      dir,
    ])) as {
      code: number;
      stderr: string;
    };
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--actor');
  });

  test('serve names each bad setting and why, and exits 2', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const result = (await run(['serve', '--port', '70000', '--data-dir', join(file, 'sub')])) as {
      code: number;
      stderr: string;
    };
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--port 70000: must be an integer 0-65535/);
    expect(result.stderr).toMatch(/--data-dir .*a-file\/sub: a parent path is not a directory/);
    const fromEnv = (await run(['serve'], { TOOLGATE_PORT: 'eighty', TOOLGATE_DATA_DIR: dir })) as {
      stderr: string;
    };
    expect(fromEnv.stderr).toContain('--port eighty');
  });

  test('a token minted next to another data dir is refused saying which key to mint with', async () => {
    const minted = await run([
      'token',
      '--sub',
      'u9',
      '--tenant',
      't9',
      '--actor',
      'customer',
      '--data-dir',
      join(dir, 'other'),
    ]);
    const verifier = await createTokenVerifier(
      { kind: 'dev', dataDir: join(dir, 'served') },
      'http://127.0.0.1:8787/mcp',
    );
    const verdict = await verifier.verify(minted.stdout.trim());
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.detail).toMatch(/^token signature invalid: .*same --data-dir/);
  });

  test('serve on a port another process holds says so and how to choose another, exit 2', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const result = (await run(['serve', '--port', String(port), '--data-dir', join(dir, 'busy')])) as {
        code: number;
        stderr: string;
      };
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`EADDRINUSE`);
      expect(result.stderr).toContain(`listens on 127.0.0.1:${port}`);
      expect(result.stderr).toMatch(/--port N or TOOLGATE_PORT/);
    } finally {
      holder.close();
    }
  });

  test('serve prints the MCP URL and dev tokens that work, and stops cleanly on SIGTERM', async () => {
    const child: ChildProcess = spawn(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--data-dir', join(dir, 'serve')],
      {
        env: { ...process.env, TOOLGATE_LOG_LEVEL: 'warn' },
      },
    );
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await expect.poll(() => stdout, { timeout: 40_000, interval: 100 }).toContain('Operator console');
      const url = /MCP Streamable HTTP at (\S+)/.exec(stdout)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      // One ready token with a first call, a few demo ids, and the command for the other tokens.
      const token = /TOKEN=(\S+)/.exec(stdout)?.[1];
      expect(stdout).toMatch(/--tool-name orders_get --tool-arg order_id=ord_[0-9a-f]{32}/);
      expect(stdout).toMatch(/order of acme-customer-alice, address still changeable: ord_[0-9a-f]{32}/);
      expect(stdout.length).toBeLessThan(4_000);
      const listTools = (bearer: string) =>
        fetch(url!, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${bearer}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        });
      const response = await listTools(token!);
      expect(response.status).toBe(200);
      expect(JSON.stringify(await response.json())).toContain('orders_get');
      const others = /npx toolgate demo tokens (.+)/.exec(stdout)?.[1];
      const listed = await run(['demo', 'tokens', ...others!.split(' ')]);
      const controller = /test_controller[^\n]*\n[^\n]*\n\s+(\S+)/.exec(listed.stdout)?.[1];
      const printed = (listed.stdout.match(/^ {4}eyJ/gm) ?? []).length;
      expect(printed).toBe(15);
      // The banner's count is the number of tokens the command it names prints.
      expect(stdout).toContain(`(${printed} in all): npx toolgate demo tokens`);
      expect((await listTools(controller!)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});

describe('the toolgate command in a pipeline', () => {
  test('a reader that closes the pipe early (contract docs | head) ends it quietly with status 0', async () => {
    const child = spawn(process.execPath, [CLI, 'contract', 'docs'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdout?.once('data', () => child.stdout?.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Nothing on stderr: the repository root's config (the demo) is documented.
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
