import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { revisionOf } from '../../src/transport/revision-of.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The leg the SDK's own classifier alone would choose. */
function sdkRevision(headers: Record<string, string>, body: unknown): string {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: headers['mcp-protocol-version'],
    mcpMethodHeader: headers['mcp-method'],
    mcpNameHeader: headers['mcp-name'],
    body,
  });
  if (outcome.kind === 'legacy' || (outcome.kind === 'reject' && outcome.rung === 'jsonrpc-shape'))
    return '2025-11-25';
  return outcome.kind === 'modern' ? '2026-07-28' : 'refused';
}

const header = (name: string, values: string[]) =>
  fc
    .option(fc.constantFrom(...values), { nil: undefined })
    .map((v) => (v === undefined ? {} : { [name]: v }));

const message = fc.record({
  method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'server/discover', 'ping'),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(1.5)),
  claim: fc.constantFrom('none', 'modern', 'old', 'broken'),
  notification: fc.boolean(),
  capabilities: fc.constantFrom<unknown>(
    {},
    { extensions: {} },
    { elicitation: {} },
    { elicitation: { form: {} } },
    { roots: { listChanged: 'yes' } },
    [],
    'none',
    undefined,
  ),
  clientInfo: fc.constantFrom<unknown>(
    undefined,
    { name: 'c', version: '1' },
    { name: 'c', version: '1', title: 'C' },
    { name: 'c' },
    { name: 'c', version: '1', websiteUrl: 'not a url' },
    'c',
  ),
  extraMeta: fc.constantFrom<Record<string, unknown>>(
    {},
    { 'io.modelcontextprotocol/logLevel': 'info' },
    { other: 1 },
  ),
  args: fc.constantFrom<unknown>(undefined, {}, { order_id: 'x' }, [], 'x'),
  cursor: fc.constantFrom<unknown>(undefined, 'c1', 5),
});

type Message = typeof message extends fc.Arbitrary<infer M> ? M : never;

function bodyOf(m: Message): unknown {
  const envelope = {
    ...ENVELOPE,
    ...(m.capabilities === undefined ? {} : { 'io.modelcontextprotocol/clientCapabilities': m.capabilities }),
    ...(m.clientInfo === undefined ? {} : { 'io.modelcontextprotocol/clientInfo': m.clientInfo }),
    ...m.extraMeta,
  };
  if (m.capabilities === undefined)
    delete (envelope as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities'];
  const meta =
    m.claim === 'modern'
      ? envelope
      : m.claim === 'old'
        ? { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }
        : m.claim === 'broken'
          ? { 'io.modelcontextprotocol/protocolVersion': 7 }
          : undefined;
  const params = {
    name: 'orders_get',
    ...(m.args === undefined ? {} : { arguments: m.args }),
    ...(m.cursor === undefined ? {} : { cursor: m.cursor }),
    ...(meta ? { _meta: meta } : {}),
  };
  return m.notification
    ? { jsonrpc: '2.0', method: m.method, params }
    : { jsonrpc: '2.0', id: m.id, method: m.method, params };
}

describe('which leg answers a POST', () => {
  test('property: the same leg as the SDK classifier alone, for any headers and body', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        header('mcp-protocol-version', ['2025-11-25', '2025-06-18', '2026-07-28', '2099-01-01']),
        header('mcp-method', ['tools/call', 'tools/list', 'server/discover']),
        header('mcp-name', ['orders_get', 'other', ' orders_get']),
        fc.oneof(
          message.map(bodyOf),
          fc.array(message.map(bodyOf), { maxLength: 3 }),
          fc.constantFrom(null, 3, 'x'),
        ),
        (a, b, c, body) => {
          const headers = { ...a, ...b, ...c } as Record<string, string>;
          const leg = revisionOf({ headers } as unknown as IncomingMessage, body);
          expect(leg).toBe(sdkRevision(headers, body));
          seen.add(leg);
        },
      ),
      { numRuns: 3000 },
    );
    // Every leg came up, the shortcuts' included, so the comparison was not vacuous.
    expect([...seen].sort()).toEqual(['2025-11-25', '2026-07-28', 'refused']);
  });
});
