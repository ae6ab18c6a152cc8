import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  createMcpHandler,
  type McpHttpHandler,
  McpServer as McpServerV2,
} from '@modelcontextprotocol/server';
import { FastMCP } from 'fastmcp';
import { pino } from 'pino';
import { z } from 'zod';
import { createApp } from '../packages/toolgate/dist/app/create-app.js';
import type { ToolgateModule } from '../packages/toolgate/dist/app/module.js';
import { loadOrCreateDevKeys } from '../packages/toolgate/dist/auth/dev-keys.js';
import { mintToken } from '../packages/toolgate/dist/auth/mint-token.js';
import { defineTool } from '../packages/toolgate/dist/contract/define-tool.js';
import { outcome } from '../packages/toolgate/dist/contract/outcome.js';
import { startHttpTransport } from '../packages/toolgate/dist/transport/http-server.js';

/**
 * One server under load for the gateway-vs-SDK and fair-anchors benchmarks, in its own process so the
 * load generator does not share its event loop. Announces {url, token} over IPC.
 * - `gateway`: toolgate as served (HTTP, token verification, the full pipeline, info logs to a file).
 * - `sdk`: the bare SDK the way its docs show stateless Streamable HTTP: a high-level McpServer and a
 *   transport per request, JSON answers, the same no-op tool.
 * - `sdk-low-level`: the SDK's low-level Server, stateless: a Server with two request handlers and a
 *   transport per request (a stateless transport cannot be reused), JSON answers, the same no-op tool.
 * - `sdk-v2`: the v2 SDK (`@modelcontextprotocol/server`) the way its docs show 2026-07-28 serving:
 *   `createMcpHandler` over a factory that builds an McpServer with the same no-op tool for each request
 *   (its defaults: 2025 traffic answered statelessly, JSON answers unless a handler streams), mounted on
 *   node:http. `@modelcontextprotocol/node`'s `toNodeHandler` is not installed, so the request is turned
 *   into a web `Request` (headers and the raw body, which the handler reads and parses itself) and the
 *   `Response` written back, as src/transport/endpoint-2026.ts does. Loaded with 2026-07-28 requests.
 * - `fastmcp`: FastMCP (TypeScript), the framework many MCP servers are written with, the way its docs
 *   show HTTP streaming without sessions (`stateless: true`, JSON answers), the same no-op tool.
 * - `raw`: the floor: node:http reading one JSON-RPC request, parsing it and answering the no-op result.
 */
const NOOP_TOOL = 'bench_noop';
const NOOP_RESULT = { content: [{ type: 'text' as const, text: '{"ok":true}' }] };
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

/** Serves `handle` on a loopback port and announces it. */
function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  const server = createServer(handle);
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, token: null });
  });
}

/**
 * Serves one node:http request with a web-standard MCP handler: headers and body into a `Request` (an
 * abort when the client goes away first), the `Response` back in one write (JSON answers; a stream is
 * copied as it comes).
 */
async function serveFetch(handler: McpHttpHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const response = await handler.fetch(
    new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/mcp'}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
      signal: gone.signal,
    }),
  );
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  if (response.body === null || !(out['content-type'] ?? '').startsWith('text/event-stream')) {
    const bytes = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...out, 'content-length': String(bytes.length) });
    res.end(bytes);
    return;
  }
  res.writeHead(response.status, out);
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}

/** Connects a per-request server to a per-request stateless transport and lets it answer. */
function serveStateless(server: McpServer | Server, req: IncomingMessage, res: ServerResponse): void {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  void server.connect(transport).then(() => transport.handleRequest(req, res));
}

if (mode === 'gateway' && dataDir) {
  const logger = pino({ level: 'info' }, pino.destination({ dest: `${dataDir}/gateway.log`, sync: false }));
  const app = await createApp({ dataDir, logger, modules: [noopDomain], backgroundJobs: false });
  const http = await startHttpTransport(app, { port: 0, keys: { kind: 'dev', dataDir } });
  const token = await mintToken(
    await loadOrCreateDevKeys(dataDir),
    { sub: 'bench', tenant: 'bench', actor: 'service', scopes: ['bench:read'] },
    { audience: http.resource },
  );
  process.send?.({ url: http.url, token });
} else if (mode === 'sdk') {
  listen((req, res) => {
    const mcp = new McpServer({ name: 'bare-sdk', version: '1.0.0' });
    mcp.registerTool(NOOP_TOOL, { description: noop.description, inputSchema: {} }, async () => NOOP_RESULT);
    serveStateless(mcp, req, res);
  });
} else if (mode === 'sdk-low-level') {
  const listing = {
    tools: [{ name: NOOP_TOOL, description: noop.description, inputSchema: { type: 'object' as const } }],
  };
  listen((req, res) => {
    const server = new Server(
      { name: 'bare-sdk-low-level', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => listing);
    server.setRequestHandler(CallToolRequestSchema, async () => NOOP_RESULT);
    serveStateless(server, req, res);
  });
} else if (mode === 'sdk-v2') {
  const handler = createMcpHandler(() => {
    const mcp = new McpServerV2({ name: 'bare-sdk-v2', version: '1.0.0' });
    mcp.registerTool(
      NOOP_TOOL,
      { description: noop.description, inputSchema: z.object({}) },
      async () => NOOP_RESULT,
    );
    return mcp;
  });
  listen((req, res) => {
    serveFetch(handler, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
} else if (mode === 'fastmcp') {
  // Its per-request debug lines off (warnings and errors kept), as the gateway logs info to a file.
  const quiet = () => {};
  const server = new FastMCP({
    name: 'bare-fastmcp',
    version: '1.0.0',
    logger: { debug: quiet, info: quiet, log: quiet, warn: console.warn, error: console.error },
  });
  server.addTool({
    name: NOOP_TOOL,
    description: noop.description,
    parameters: z.object({}),
    execute: async () => NOOP_RESULT.content[0]!.text,
  });
  // FastMCP takes a port, not 0: a free one, found as the system hands them out.
  const port = await new Promise<number>((resolve) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  await server.start({
    transportType: 'httpStream',
    httpStream: { port, host: '127.0.0.1', endpoint: '/mcp', stateless: true, enableJsonResponse: true },
  });
  process.send?.({ url: `http://127.0.0.1:${port}/mcp`, token: null });
} else if (mode === 'raw') {
  const result = JSON.stringify(NOOP_RESULT);
  listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number | string };
      const body = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
} else {
  throw new Error('usage: noop-server.ts gateway <dataDir> | sdk | sdk-low-level | sdk-v2 | fastmcp | raw');
}
