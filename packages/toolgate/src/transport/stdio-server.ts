import type { Readable, Writable } from 'node:stream';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { App } from '../app/create-app.ts';
import type { Principal } from '../auth/principal.ts';
import { ConfirmationElicitation } from './confirmation-elicitation.ts';
import { OpeningTransport } from './opening-transport.ts';
import { StdioMeter } from './request-metering.ts';
import { DEFAULT_TOOLS_PAGE_SIZE } from './serialized-listings.ts';
import { StdioLineTransport } from './stdio-line-transport.ts';
import { createToolServer, type PrincipalOf } from './tool-server.ts';

export interface StdioTransport {
  /** Resolves when the client closes stdin or close() is called. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

type Message = Parameters<StdioLineTransport['send']>[0];

/**
 * MCP over stdio for one local client. There are no headers on a pipe, so the whole session acts
 * as one principal, verified from TOOLGATE_TOKEN before the server starts and, when `principalNow`
 * is given, again on every request, so the session ends with its token. stdout carries only the
 * protocol; logs go to stderr.
 *
 * The opening message chooses the revision for the connection's lifetime, as the SDK's stdio entry
 * reads it: one carrying the 2026-07-28 envelope (a `server/discover` probe, or any request) pins
 * 2026-07-28; an `initialize` handshake (or anything without the envelope) pins 2025-11-25. Either is
 * served by the same tool server the HTTP endpoint builds.
 */
export async function startStdioTransport(
  app: App,
  principal: Principal,
  streams: { input?: Readable; output?: Writable } = {},
  principalNow: () => Principal | null | Promise<Principal | null> = () => principal,
  options: {
    readonly toolsPageSize?: number;
    /** The consent key (see loadConsentKey); absent: no confirmation is asked through the client. */
    readonly consentKey?: string | Uint8Array;
  } = {},
): Promise<StdioTransport> {
  const input = streams.input ?? process.stdin;
  const limits = app.gateway.limits;
  const meter = limits
    ? new StdioMeter(limits, principal, (name) => app.registry.get(name) !== undefined)
    : null;
  const line = new StdioLineTransport(input, streams.output ?? process.stdout, undefined, meter);
  // The gateway is handed a counted copy of the principal, so the meter knows which calls it charged.
  const principalOf: PrincipalOf = meter
    ? async () => {
        const now = await principalNow();
        return now && meter.tallied(now);
      }
    : () => principalNow();
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  // Lines that are not messages are answered by the transport; what remains here is the stream's own
  // errors and messages the server could not handle.
  const onerror = (error: Error) => app.logger.warn({ err: error }, 'MCP stdio message could not be handled');
  let stopServing: (() => Promise<void>) | null = null;

  const toolsPageSize = options.toolsPageSize ?? DEFAULT_TOOLS_PAGE_SIZE;
  // A pipe carries no auth info: confirmation state is bound to the connection's one principal.
  const confirmations =
    options.consentKey !== undefined
      ? new ConfirmationElicitation({ key: options.consentKey }, principal)
      : undefined;
  const served = {
    gateway: app.gateway,
    toolsPageSize,
    tasks: app.tasks,
    ...(confirmations ? { confirmations } : {}),
  };
  // Serving starts with the opening message, which the connection hands over first.
  const serve = (): void => {
    const transport = new OpeningTransport(line, read, () => markClosed());
    const handle = serveStdio((ctx) => createToolServer(served, principalOf, ctx.era, true), {
      transport: transport as never,
      onerror,
    });
    stopServing = () => handle.close();
  };
  const read: Message[] = [];
  line.onmessage = (message) => {
    read.push(message);
    if (read.length === 1) serve();
  };
  line.onclose = () => markClosed();
  line.onerror = onerror;

  const close = async () => {
    input.off('end', onEnd);
    if (stopServing) await (stopServing as () => Promise<void>)();
    else await line.close();
    markClosed();
  };
  const onEnd = () => void close();
  input.once('end', onEnd);
  await line.start();
  app.logger.info({ sub: principal.subject, tenant: principal.tenant }, 'serving MCP over stdio');
  return { closed, close };
}
