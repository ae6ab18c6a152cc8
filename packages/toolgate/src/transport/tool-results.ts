import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { OutcomeEnvelope } from '../contract/envelope.ts';
import type { Gateway, ToolCallRequest } from '../gateway/gateway.ts';
import type { GatewayMetrics } from '../telemetry/metrics.ts';

/**
 * A tools/call's answer as MCP `CallToolResult`: the envelope as structuredContent and, for clients that
 * read only `content` (most hosts hand the model nothing else), as JSON text. `text` is the envelope's
 * JSON when the caller has it already (a tools/call's answer, measured by `answerText`).
 */
export function toolResult(
  envelope: OutcomeEnvelope,
  text: string = JSON.stringify(envelope),
): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    structuredContent: envelope as unknown as Record<string, unknown>,
    isError: envelope.status === 'failed',
  };
}

/**
 * The same `CallToolResult` as JSON text, for transports that write the reply themselves: the envelope
 * is serialized once (`text`, from `answerText`) and that text serves as both structuredContent and
 * the text copy.
 */
export function toolResultJson(envelope: OutcomeEnvelope, text: string): string {
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text},"isError":${envelope.status === 'failed'}}`;
}

/** A tools/call answer's envelope as JSON text, its size counted per tool (`resultBytes`). */
export function answerText(envelope: OutcomeEnvelope, metrics: GatewayMetrics): string {
  const text = JSON.stringify(envelope);
  metrics.resultBytes.observe(
    { tool: envelope.tool, contract_version: envelope.contract_version },
    Buffer.byteLength(text),
  );
  return text;
}

/**
 * One tools/call answered as `CallToolResult` JSON text, for the transports that write the reply
 * themselves (no client of theirs is asked anything): the envelope serialized once.
 */
export async function callJson(
  gateway: Gateway,
  request: ToolCallRequest,
  principal: Principal | null,
  signal?: AbortSignal,
): Promise<string> {
  const { envelope } = await gateway.call(request, principal, signal);
  return toolResultJson(envelope, answerText(envelope, gateway.metrics));
}
