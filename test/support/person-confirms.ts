import { pino } from 'pino';
import type {
  ConfirmationAsk,
  ConfirmationView,
  OperationHandle,
  OutcomeEnvelope,
  Principal,
  ToolOutcome,
} from 'toolgate';
import type { App } from 'toolgate/server';
import type { RegisteredTool } from '../../packages/toolgate/src/contract/tool-registry.ts';
import type { ConfirmationQuestion } from '../../packages/toolgate/src/gateway/confirmation-types.ts';
import { MODERN, postModern, type WireAnswer } from '../tasks/extension-client.ts';
import { noExceptions } from './no-exceptions.ts';

/** What the person answers when a call asks them (a choice names the option's value). */
export type PersonReply =
  | { readonly action: 'accept'; readonly choice?: string }
  | { readonly action: 'decline' | 'cancel' };

export interface ConfirmedCall {
  readonly envelope: OutcomeEnvelope;
  /** The question the person was asked, or null when the call needed no confirmation. */
  readonly asked: ConfirmationQuestion | null;
}

/**
 * One in-process call from a client that can ask its user: when the tool asks, the question goes to
 * the person, whose reply comes back with the state the question was asked with, as the 2026-07-28
 * transport carries it. For domain tests whose subject is not the confirmation itself (recovery,
 * duplicates, concurrency); the confirmation over the wire is tested with `confirmingClient`.
 */
export async function callAsPerson(
  app: App,
  principal: Principal,
  name: string,
  args: Record<string, unknown>,
  reply: PersonReply = { action: 'accept' },
  signal?: AbortSignal,
): Promise<ConfirmedCall> {
  const first = await app.gateway.call(
    { name, arguments: args, consent: { canAsk: true } },
    principal,
    signal,
  );
  if (first.kind === 'envelope') return { envelope: first.envelope, asked: null };
  const { question } = first;
  const content =
    reply.action === 'accept'
      ? { confirm: true, ...(reply.choice !== undefined ? { choice: reply.choice } : {}) }
      : undefined;
  const second = await app.gateway.call(
    {
      name,
      arguments: args,
      consent: {
        canAsk: true,
        answer: { state: question.state, action: reply.action, ...(content ? { content } : {}) },
      },
    },
    principal,
    signal,
  );
  if (second.kind === 'ask') throw new Error(`${name} asked again after the person answered`);
  return { envelope: second.envelope, asked: question };
}

/** The envelope of a call the person accepts (or that needed no confirmation). */
export async function callAccepted(
  app: App,
  principal: Principal,
  name: string,
  args: Record<string, unknown>,
  choice?: string,
): Promise<OutcomeEnvelope> {
  const reply: PersonReply = choice === undefined ? { action: 'accept' } : { action: 'accept', choice };
  return (await callAsPerson(app, principal, name, args, reply)).envelope;
}

/**
 * The confirmation value a relayed CONFIRMATION_REQUIRED answer names: the only one, or the one of the
 * option whose title starts with `option` when the person chooses.
 */
export function relayedDigest(envelope: OutcomeEnvelope, option?: string): string {
  const resolution = envelope.resolution ?? '';
  if (option === undefined) {
    const only = /confirmation: "([0-9a-f]{24})"/.exec(resolution);
    if (!only) throw new Error(`no confirmation named in: ${resolution}`);
    return only[1]!;
  }
  for (const [, title, digest] of resolution.matchAll(/"([^"]+)": confirmation "([0-9a-f]{24})"/g)) {
    if (title!.startsWith(option)) return digest!;
  }
  throw new Error(`no confirmation for "${option}" in: ${resolution}`);
}

/**
 * One 2026-07-28 tools/call over HTTP from a client that can ask its user, written by hand so that a
 * test can send an answer back with other arguments than the question was asked for. `headers` are
 * the tool's mirrored `Mcp-Param-*` headers, by header name.
 */
export function askingCall(
  url: string,
  token: string,
  call: { name: string; arguments: Record<string, unknown>; headers?: Record<string, string> },
  retry: { inputResponses?: unknown; requestState?: unknown } = {},
): Promise<WireAnswer> {
  const params = {
    name: call.name,
    arguments: call.arguments,
    ...retry,
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'domain-confirmation-test', version: '1.0.0' },
    },
  };
  const mirrored = Object.fromEntries(
    Object.entries(call.headers ?? {}).map(([header, value]) => [`mcp-param-${header.toLowerCase()}`, value]),
  );
  return postModern(
    url,
    token,
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params },
    { 'mcp-method': 'tools/call', 'mcp-name': call.name, ...mirrored },
  );
}

/** The accept a person sends back, choosing `choice` when the question offers one. */
export function accepted(choice?: string) {
  return {
    confirmation: { action: 'accept', content: { confirm: true, ...(choice ? { choice } : {}) } },
  };
}

/**
 * A tool's question and its handler, called directly (no gateway): what the handler does with a
 * confirmation other than the one its question would produce. The operation handle refuses every
 * write to the operation record, so nothing can be settled from here.
 */
export async function askThenRun(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  principal: Principal,
): Promise<{
  readonly input: Record<string, unknown>;
  readonly asked: ConfirmationAsk;
  readonly run: (confirmation: ConfirmationView | null) => Promise<ToolOutcome<unknown>>;
}> {
  const input = tool.definition.input.parse(args) as Record<string, unknown>;
  const correlationId = 'corr-direct';
  const signal = new AbortController().signal;
  const asked = await tool.definition.confirm!.ask(input, { principal, signal, correlationId });
  if (!asked || !('message' in asked)) throw new Error(`${tool.definition.name} must ask for this input`);
  const operation: OperationHandle = {
    id: 'op-never-reserved',
    key: String(input.idempotency_key),
    mode: 'execute',
    checkpoints: {},
    saveCheckpoint: () => Promise.reject(new Error('nothing may be saved')),
    addExternalRef: () => Promise.reject(new Error('nothing may be noted')),
    commit: () => Promise.reject(new Error('nothing may be committed')),
  };
  const run = (confirmation: ConfirmationView | null) =>
    tool.definition.handler(input, {
      principal,
      signal,
      deadline: Date.now() + 5_000,
      correlationId,
      annotate: () => undefined,
      exceptions: noExceptions,
      operation,
      confirmation,
      log: pino({ level: 'silent' }),
    });
  return { input, asked, run };
}
