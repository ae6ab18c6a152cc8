import type { IncomingMessage } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { legOf } from '../../src/transport/modern-endpoint.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The leg the SDK's own classifier alone would choose. */
function sdkLeg(headers: Record<string, string>, body: unknown): string {
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: headers['mcp-protocol-version'],
    mcpMethodHeader: headers['mcp-method'],
    mcpNameHeader: headers['mcp-name'],
    body,
  });
  if (outcome.kind === 'legacy' || (outcome.kind === 'reject' && outcome.rung === 'jsonrpc-shape'))
    return 'legacy';
  return outcome.kind === 'modern' ? 'modern' : 'refused';
}

const header = (name: string, values: string[]) =>
  fc
    .option(fc.constantFrom(...values), { nil: undefined })
    .map((v) => (v === undefined ? {} : { [name]: v }));

const message = fc.record({
  method: fc.constantFrom('tools/call', 'tools/list', 'initialize', 'server/discover', 'ping'),
  id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 })),
  claim: fc.constantFrom('none', 'modern', 'old', 'broken'),
  notification: fc.boolean(),
});

type Message = typeof message extends fc.Arbitrary<infer M> ? M : never;

function bodyOf(m: Message): unknown {
  const meta =
    m.claim === 'modern'
      ? ENVELOPE
      : m.claim === 'old'
        ? { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' }
        : m.claim === 'broken'
          ? { 'io.modelcontextprotocol/protocolVersion': 7 }
          : undefined;
  const params = { name: 'orders_get', ...(meta ? { _meta: meta } : {}) };
  return m.notification
    ? { jsonrpc: '2.0', method: m.method, params }
    : { jsonrpc: '2.0', id: m.id, method: m.method, params };
}

describe('which leg answers a POST', () => {
  test('property: the same leg as the SDK classifier alone, for any headers and body', () => {
    fc.assert(
      fc.property(
        header('mcp-protocol-version', ['2025-11-25', '2025-06-18', '2026-07-28', '2099-01-01']),
        header('mcp-method', ['tools/call', 'tools/list']),
        header('mcp-name', ['orders_get', 'other']),
        fc.oneof(
          message.map(bodyOf),
          fc.array(message.map(bodyOf), { maxLength: 3 }),
          fc.constantFrom(null, 3, 'x'),
        ),
        (a, b, c, body) => {
          const headers = { ...a, ...b, ...c } as Record<string, string>;
          expect(legOf({ headers } as unknown as IncomingMessage, body)).toBe(sdkLeg(headers, body));
        },
      ),
      { numRuns: 500 },
    );
  });
});
