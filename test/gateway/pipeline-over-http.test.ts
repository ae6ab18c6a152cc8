import { ProtocolError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type StartedGateway, startGateway } from '../support/start-gateway.ts';
import { newProbeLedger, type ProbeLedger, probeReader, probeTools } from './probe-tools.ts';

/** DESIGN.md section 2 through the real SDK client over Streamable HTTP. */
describe('the pipeline over MCP Streamable HTTP', () => {
  let ledger: ProbeLedger;
  let gw: StartedGateway;
  beforeAll(async () => {
    ledger = newProbeLedger();
    gw = await startGateway({ modules: [], tools: probeTools(ledger), principals: [probeReader] });
  });
  afterAll(() => gw.close());
  beforeEach(() => {
    for (const key of Object.keys(ledger.executions)) delete ledger.executions[key];
    ledger.slowSignalAborted = null;
    ledger.waitAbortedAfterMs = null;
  });

  test('tools/list publishes closed input schemas, output schemas and derived annotations', async () => {
    const client = await gw.client('probe_reader');
    const tools = (await client.listTools()).tools.filter((t) => t.name.startsWith('probe_'));
    // probe_admin_echo needs probe:admin, which the reader lacks: it is not offered (a call is FORBIDDEN).
    expect(tools.map((t) => t.name)).toEqual([
      'probe_echo',
      'probe_slow',
      'probe_throw',
      'probe_wait',
      'probe_wrong_shape',
    ]);
    for (const tool of tools) {
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.outputSchema?.required).toContain('status');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
  });

  test('a valid call runs the handler once and answers the envelope in structuredContent and text', async () => {
    const client = await gw.client('probe_reader');
    const result = await client.callTool({ name: 'probe_echo', arguments: { text: 'ab', repeat: 2 } });
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toMatchObject({
      ok: true,
      status: 'completed',
      result: { text: 'abab' },
    });
    const [content] = result.content as { type: string; text: string }[];
    expect(JSON.parse(content!.text)).toEqual(result.structuredContent);
    expect(ledger.executions).toEqual({ probe_echo: 1 });
  });

  test('an unknown field is failed / INVALID_ARGUMENT naming it and the allowed fields; nothing runs', async () => {
    const envelope = await gw.callTool('probe_reader', 'probe_echo', { text: 'a', colour: 'red' });
    expect(envelope).toMatchObject({
      ok: false,
      status: 'failed',
      code: 'INVALID_ARGUMENT',
      category: 'validation',
    });
    expect(envelope.field_errors).toEqual([
      expect.objectContaining({
        field: 'colour',
        code: 'UNKNOWN_FIELD',
        message: expect.stringContaining('text'),
      }),
    ]);
    expect(ledger.executions).toEqual({});
  });

  test('a missing scope is FORBIDDEN and the handler never runs', async () => {
    const envelope = await gw.callTool('probe_reader', 'probe_admin_echo', { text: 'a' });
    expect(envelope).toMatchObject({ status: 'failed', code: 'FORBIDDEN', category: 'authorization' });
    expect(envelope.resolution).toContain('probe:admin');
    expect(ledger.executions).toEqual({});
  });

  test('a handler returning the wrong shape is OUTPUT_CONTRACT_VIOLATION, never passed on', async () => {
    const envelope = await gw.callTool('probe_reader', 'probe_wrong_shape', { text: 'a' });
    expect(envelope).toMatchObject({ status: 'failed', code: 'OUTPUT_CONTRACT_VIOLATION', result: null });
    expect(ledger.executions).toEqual({ probe_wrong_shape: 1 });
  });

  test('a throwing handler is INTERNAL_ERROR with a correlation id and no stack, SQL or path', async () => {
    const client = await gw.client('probe_reader');
    const result = await client.callTool({ name: 'probe_throw', arguments: { text: 'a' } });
    const text = JSON.stringify(result);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'failed', code: 'INTERNAL_ERROR' });
    expect(text).toMatch(/correlation id [0-9a-f-]{36}/);
    expect(text).not.toMatch(/\/srv\/|SELECT|secrets|\bat .*\.ts:\d+/);
    expect(ledger.executions).toEqual({ probe_throw: 1 });
  });

  test('a slow handler ends in a timeout outcome and its signal is aborted', async () => {
    const started = Date.now();
    const envelope = await gw.callTool('probe_reader', 'probe_slow', { text: 'a' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(envelope).toMatchObject({
      status: 'failed',
      code: 'EXECUTION_TIMEOUT',
      category: 'timeout',
      retryable: true,
      result: null,
    });
    expect(ledger.slowSignalAborted).toBe(true);
    expect(ledger.executions).toEqual({ probe_slow: 1 });
  });

  test('a call the client cancels has its signal aborted long before it would finish', async () => {
    const client = await gw.client('probe_reader');
    const controller = new AbortController();
    const pending = client.callTool(
      { name: 'probe_wait', arguments: { text: 'a' } },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort('the user changed their mind');
    await expect(pending).rejects.toThrow();
    await expect.poll(() => ledger.waitAbortedAfterMs, { timeout: 1000 }).not.toBeNull();
    expect(ledger.waitAbortedAfterMs).toBeLessThan(1500);
    expect(ledger.executions).toEqual({ probe_wait: 1 });
  });

  test('an unknown tool is a JSON-RPC error (-32602), not a tool result', async () => {
    const client = await gw.client('probe_reader');
    const error = await client.callTool({ name: 'probe_nope', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect(ledger.executions).toEqual({});
  });

  test('metrics count calls by status and errors by code', async () => {
    await gw.callTool('probe_reader', 'probe_admin_echo', { text: 'a' });
    const response = await fetch(`${gw.origin}/metrics`);
    const body = await response.text();
    expect(body).toMatch(
      /toolgate_tool_calls_total\{tool="probe_admin_echo",contract_version="1.0.0",status="failed"\} [1-9]/,
    );
    expect(body).toMatch(
      /toolgate_tool_errors_total\{tool="probe_admin_echo",contract_version="1.0.0",code="FORBIDDEN"\} [1-9]/,
    );
    expect(body).toMatch(/tool_result_bytes_count\{tool="probe_admin_echo",contract_version="1.0.0"\} [1-9]/);
  });
});
