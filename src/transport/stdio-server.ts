import type { Readable, Writable } from 'node:stream';
import type { App } from '../app/create-app.ts';
import type { Principal } from '../auth/principal.ts';
import { createMcpServer, type PrincipalSource } from './mcp-server.ts';
import { StdioLineTransport } from './stdio-line-transport.ts';

export interface StdioTransport {
  /** Resolves when the client closes stdin or close() is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * MCP over stdio for one local client. There are no headers on a pipe, so the whole session acts
 * as one principal, verified from TOOLGATE_TOKEN before the server starts and, when `principalNow`
 * is given, again on every request, so the session ends with its token. stdout carries only the
 * protocol; logs go to stderr.
 */
export async function startStdioTransport(
  app: App,
  principal: Principal,
  streams: { input?: Readable; output?: Writable } = {},
  principalNow: PrincipalSource = () => principal,
  options: { readonly toolsPageSize?: number } = {},
): Promise<StdioTransport> {
  const input = streams.input ?? process.stdin;
  const server = createMcpServer(app.gateway, principalNow, app.tasks, options.toolsPageSize);
  const transport = new StdioLineTransport(input, streams.output ?? process.stdout);
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  server.onclose = () => markClosed();
  // Lines that are not messages are answered by the transport; what remains here is the stream's own
  // errors and messages the server could not handle.
  server.onerror = (error) => app.logger.warn({ err: error }, 'MCP stdio message could not be handled');
  const onEnd = () => void server.close();
  input.once('end', onEnd);
  await server.connect(transport);
  app.logger.info({ sub: principal.subject, tenant: principal.tenant }, 'serving MCP over stdio');
  return {
    closed,
    async close() {
      input.off('end', onEnd);
      await server.close();
    },
  };
}
