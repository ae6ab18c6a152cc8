import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { decodeJwt } from 'jose';
import { loadOrCreateDevKeys, mintToken } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runCommand } from '../support/serve-process.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'bin/toolgate.mjs');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The README's desktop recipe: the token command and the client configuration, as written. */
function desktopRecipe(): { tokenCommand: string; server: { command: string; args: string[] } } {
  const section = README.slice(README.indexOf('**Over stdio**'));
  const tokenCommand = /```sh\n(node [^\n]+ token [^\n]+)\n```/.exec(section)?.[1];
  const json = /```json\n([\s\S]+?)\n```/.exec(section)?.[1];
  if (!tokenCommand || !json) throw new Error('README: no desktop recipe after **Over stdio**');
  const config = JSON.parse(json) as { mcpServers: Record<string, { command: string; args: string[] }> };
  const [server] = Object.values(config.mcpServers);
  return { tokenCommand, server: server! };
}

/** Words of a one-line shell command with double-quoted arguments (all the README uses). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

describe("the README's desktop (stdio) recipe", () => {
  let dataDir: string;
  const place = (word: string) =>
    word.replace('/path/to/toolgate/.toolgate', dataDir).replace('/path/to/toolgate', ROOT);
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-recipe-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const connect = async (token: string) => {
    const { server } = desktopRecipe();
    const client = new Client({ name: 'desktop-recipe', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: server.command === 'node' ? process.execPath : server.command,
        args: server.args.map(place),
        env: { PATH: process.env.PATH ?? '', TOOLGATE_TOKEN: token, TOOLGATE_LOG_LEVEL: 'warn' },
        stderr: 'pipe',
      }),
    );
    return client;
  };

  test('starts with the token it mints and serves for the whole lifetime it states', async () => {
    const { tokenCommand } = desktopRecipe();
    const words = shellWords(tokenCommand);
    // The checkout's own command, the one the client configuration starts too.
    expect(words.slice(0, 2).map(place)).toEqual(['node', CLI]);
    const minted = await runCommand(CLI, words.slice(2).map(place));
    expect(minted.code, minted.stderr).toBe(0);
    const token = minted.stdout.trim();
    const ttl = Number(words[words.indexOf('--ttl') + 1]);
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(ttl);
    // Minting more than serve accepts by default is said, with the flag the recipe passes.
    expect(minted.stderr).toContain('--max-token-lifetime-seconds');
    expect(desktopRecipe().server.args).toContain('--max-token-lifetime-seconds');
    const client = await connect(token);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('orders_get');
      const read = await client.callTool({ name: 'orders_get', arguments: { order_id: 'ord_missing' } });
      expect(read.structuredContent).toMatchObject({ tool: 'orders_get' });
    } finally {
      await client.close();
    }
  }, 40_000);

  test("takes a token its data dir's key signed for an HTTP address (the banner's)", async () => {
    const token = await mintToken(
      await loadOrCreateDevKeys(dataDir),
      { sub: 'you', tenant: 'acme', actor: 'customer', scopes: ['orders:read'] },
      { audience: 'http://127.0.0.1:43210/mcp' },
    );
    const client = await connect(token);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('orders_get');
    } finally {
      await client.close();
    }
  }, 40_000);

  test('refuses a token signed with another key', async () => {
    const other = mkdtempSync(join(tmpdir(), 'toolgate-recipe-other-'));
    try {
      const token = await mintToken(
        await loadOrCreateDevKeys(other),
        { sub: 'you', tenant: 'acme', actor: 'customer', scopes: ['orders:read'] },
        { audience: 'http://127.0.0.1:8787/mcp' },
      );
      const { server } = desktopRecipe();
      const refused = await runCommand(
        server.args[0]!.replace('/path/to/toolgate', ROOT),
        server.args.slice(1).map(place),
        {
          env: { TOOLGATE_TOKEN: token },
        },
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('refusing to start');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 40_000);
});
