import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { pino } from 'pino';
import { z } from 'zod';
import { createApp } from '../src/app/create-app.ts';
import type { ToolgateModule } from '../src/app/module.ts';
import { loadOrCreateDevKeys } from '../src/auth/dev-keys.ts';
import { mintToken } from '../src/auth/mint-token.ts';
import { defineTool } from '../src/contract/define-tool.ts';
import { outcome } from '../src/contract/outcome.ts';
import { startHttpTransport } from '../src/transport/http-server.ts';

/**
 * One server under load for the gateway-vs-SDK benchmark, in its own process so the load generator
 * does not share its event loop. Announces {url, token} over IPC.
 * - `gateway`: toolgate as served (HTTP, token verification, the full pipeline, info logs to a file).
 * - `sdk`: the bare SDK the way its docs show stateless Streamable HTTP: a server and a transport
 *   per request, JSON answers, the same no-op tool.
 */
const NOOP_TOOL = 'bench_noop';
const [mode, dataDir] = process.argv.slice(2);

const noop = defineTool({
  name: NOOP_TOOL,
  title: 'No-op',
  description: 'Does nothing and answers at once; measures the cost of everything around a tool.',
  kind: 'read',
  version: '1.0.0',
  input: z.strictObject({}),
  output: z.strictObject({ ok: z.boolean() }),
  errors: [],
  scopes: ['bench:read'],
  timeoutMs: 5_000,
  examples: [],
  handler: async () => outcome.completed({ ok: true }),
});
const noopDomain: ToolgateModule = {
  name: 'bench-noop',
  create: () => ({
    tools: [noop],
  }),
};

if (mode === 'gateway' && dataDir) {
  const logger = pino({ level: 'info' }, pino.destination({ dest: `${dataDir}/gateway.log`, sync: false }));
  const app = await createApp({ dataDir, logger, seed: false, modules: [noopDomain], backgroundJobs: false });
  const http = await startHttpTransport(app, { port: 0, keys: { kind: 'dev', dataDir } });
  const token = await mintToken(
    await loadOrCreateDevKeys(dataDir),
    { sub: 'bench', tenant: 'bench', actor: 'service', scopes: ['bench:read'] },
    { audience: http.resource },
  );
  process.send?.({ url: http.url, token });
} else if (mode === 'sdk') {
  const server = createServer((req, res) => {
    const mcp = new McpServer({ name: 'bare-sdk', version: '1.0.0' });
    mcp.registerTool(NOOP_TOOL, { description: noop.description, inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: '{"ok":true}' }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, token: null });
  });
} else {
  throw new Error('usage: noop-server.ts gateway <dataDir> | sdk');
}
