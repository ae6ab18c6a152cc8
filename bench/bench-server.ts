import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { pino } from 'pino';
import { createApp } from '../src/app/create-app.ts';
import { startHttpTransport } from '../src/transport/http-server.ts';
import { benchDomain } from './bench-domain.ts';

/**
 * A server under load for the operations benchmark, in its own process so the load generator does
 * not share its event loop. `sdk-noop`: the bare MCP SDK, stateless Streamable HTTP with a server and
 * transport per request (the SDK's documented stateless pattern) and a tool that does nothing.
 * `gateway`: toolgate over HTTP serving one durable write tool on SQLite (data dir) or PostgreSQL.
 * Announces {port, resource} over IPC.
 */
const [mode, dataDir, databaseUrl] = process.argv.slice(2);

if (mode === 'sdk-noop') {
  const http = createServer((req, res) => {
    const server = new McpServer({ name: 'noop', version: '1.0.0' });
    server.registerTool('noop', { description: 'Does nothing.', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: 'ok' }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  http.listen(0, '127.0.0.1', () =>
    process.send?.({ port: (http.address() as AddressInfo).port, resource: '' }),
  );
} else {
  const app = await createApp({
    dataDir: dataDir!,
    databaseUrl: databaseUrl || undefined,
    logger: pino({ level: 'silent' }),
    seed: false,
    domains: [benchDomain],
  });
  const http = await startHttpTransport(app, { port: 0, keys: { kind: 'dev', dataDir: dataDir! } });
  process.send?.({ port: http.port, resource: http.resource });
}
process.on('disconnect', () => process.exit(0));
