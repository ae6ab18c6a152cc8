import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { newProbeLedger, probeTools } from '../../../../test/gateway/probe-tools.ts';
import {
  failingIdempotency,
  readOnlyIdempotency,
  recordingAuditSink,
} from '../../../../test/support/direct-gateway.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { defineTool } from '../../src/contract/define-tool.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { idempotencyKeySchema } from '../../src/contract/schema-helpers.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import { Gateway } from '../../src/gateway/gateway.ts';
import type { IdempotencyLayer } from '../../src/operations/keyed-store.ts';
import { createLogger } from '../../src/telemetry/logger.ts';
import { GatewayMetrics } from '../../src/telemetry/metrics.ts';
import { callJson, toolResult } from '../../src/transport/tool-results.ts';

const KEY = 'note-key-0000000001';

const principal: Principal = {
  subject: 'user_probe',
  tenant: 'tenant_probe',
  actor: 'customer',
  scopes: new Set(['probe:read', 'probe:write']),
};

/** An envelope as the wire carries it: every field, in its order. */
function failed(
  tool: string,
  fields: {
    code: string;
    category: string;
    message: string;
    retryable?: boolean;
    resolution: string | null;
    field_errors?: unknown[];
  },
): string {
  return JSON.stringify({
    ok: false,
    tool,
    contract_version: '1.0.0',
    status: 'failed',
    operation_id: null,
    replayed: false,
    code: fields.code,
    category: fields.category,
    message: fields.message,
    retryable: fields.retryable ?? false,
    resolution: fields.resolution,
    field_errors: fields.field_errors ?? [],
    result: null,
    warnings: [],
  });
}

function gatewayWith(idempotency: IdempotencyLayer) {
  const ledger = newProbeLedger();
  const note = defineTool({
    name: 'probe_note',
    title: 'Note',
    description: 'Keeps a note; the tests make its reservation fail to see what the caller is told.',
    kind: 'write',
    mutation: 'create',
    version: '1.0.0',
    input: z.strictObject({
      text: z.string().min(1).max(100).describe('The note.'),
      idempotency_key: idempotencyKeySchema,
    }),
    output: z.strictObject({ kept: z.boolean() }),
    errors: [],
    scopes: ['probe:write'],
    timeoutMs: 2_000,
    examples: [],
    handler: async () => {
      ledger.executions.probe_note = (ledger.executions.probe_note ?? 0) + 1;
      return outcome.completed({ kept: true });
    },
    reconcile: async () => ({ settled: true, outcome: outcome.completed({ kept: true }) }),
  });
  const registry = new ToolRegistry({ retentionSeconds: 60 });
  for (const tool of [...probeTools(ledger), note]) registry.register(tool);
  const audit = recordingAuditSink();
  const gateway = new Gateway({
    registry,
    idempotency,
    logger: createLogger({ level: 'silent' }),
    metrics: new GatewayMetrics(),
    audit,
  });
  return { gateway, ledger, audit };
}

/** The answers each layer gives when it refuses a call, byte for byte as a client receives them. */
describe('each layer answers its own refusal', () => {
  test('authorization: FORBIDDEN before the input is looked at; audited, nothing ran', async () => {
    const { gateway, ledger, audit } = gatewayWith(readOnlyIdempotency);
    const result = toolResult(
      (await gateway.call({ name: 'probe_admin_echo', arguments: { unknown: true } }, principal)).envelope,
    );
    expect(result.content).toEqual([
      {
        type: 'text',
        text: failed('probe_admin_echo', {
          code: 'FORBIDDEN',
          category: 'authorization',
          message: 'This caller is not allowed to use probe_admin_echo.',
          resolution: 'Requires scope(s): probe:admin. Ask someone who holds them; do not retry.',
        }),
      },
    ]);
    expect(result.isError).toBe(true);
    expect(ledger.executions).toEqual({});
    expect(audit.entries.map((e) => [e.tool, e.status, e.code])).toEqual([
      ['probe_admin_echo', 'failed', 'FORBIDDEN'],
    ]);
  });

  test('input: INVALID_ARGUMENT with one field error per problem; nothing ran', async () => {
    const { gateway, ledger, audit } = gatewayWith(readOnlyIdempotency);
    const text = await callJson(
      gateway,
      { name: 'probe_echo', arguments: { text: '', colour: 'red' } },
      principal,
    );
    expect(JSON.parse(text).content[0].text).toBe(
      failed('probe_echo', {
        code: 'INVALID_ARGUMENT',
        category: 'validation',
        message:
          'The arguments do not match the input schema of probe_echo; field_errors says what is wrong with each field.',
        resolution: 'Fix the fields listed in field_errors and call again; nothing was executed.',
        field_errors: [
          { field: 'text', code: 'TOO_SMALL', message: 'Too short: at least 1 character(s) (got 0).' },
          {
            field: 'colour',
            code: 'UNKNOWN_FIELD',
            message: 'Unknown field "colour" is not accepted; allowed fields: repeat, text',
          },
        ],
      }),
    );
    expect(ledger.executions).toEqual({});
    // A read refused for its input is no refusal of authority: not audited.
    expect(audit.entries).toEqual([]);
  });

  test('input: a key in _meta that differs from the argument is a field error; audited, nothing ran', async () => {
    const { gateway, ledger, audit } = gatewayWith(readOnlyIdempotency);
    const envelope = (
      await gateway.call(
        {
          name: 'probe_note',
          arguments: { text: 'hi', idempotency_key: KEY },
          _meta: { 'io.toolgate/idempotency-key': 'other-key-000000001' },
        },
        principal,
      )
    ).envelope;
    expect(JSON.stringify(envelope)).toBe(
      failed('probe_note', {
        code: 'INVALID_ARGUMENT',
        category: 'validation',
        message:
          'The arguments do not match the input schema of probe_note; field_errors says what is wrong with each field.',
        resolution: 'Fix the fields listed in field_errors and call again; nothing was executed.',
        field_errors: [
          {
            field: 'idempotency_key',
            code: 'KEY_MISMATCH',
            message:
              'idempotency_key differs from _meta["io.toolgate/idempotency-key"]; send one key, or the same in both',
          },
        ],
      }),
    );
    expect(ledger.executions).toEqual({});
    expect(audit.entries.map((e) => [e.tool, e.status, e.code])).toEqual([
      ['probe_note', 'failed', 'INVALID_ARGUMENT'],
    ]);
  });

  test('a layer that fails before execution: INTERNAL_ERROR under the audited correlation id', async () => {
    const { gateway, ledger, audit } = gatewayWith(failingIdempotency(() => new Error('disk on fire')));
    const envelope = (
      await gateway.call({ name: 'probe_note', arguments: { text: 'hi', idempotency_key: KEY } }, principal)
    ).envelope;
    const [entry] = audit.entries;
    expect(audit.entries).toHaveLength(1);
    expect(JSON.stringify(envelope)).toBe(
      failed('probe_note', {
        code: 'INTERNAL_ERROR',
        category: 'internal',
        message: `An unexpected error occurred before execution (correlation id ${entry!.correlationId}); nothing was changed.`,
        resolution: null,
      }),
    );
    expect(envelope.message).not.toContain('disk on fire');
    expect(ledger.executions).toEqual({});
    expect([entry!.status, entry!.code]).toEqual(['failed', 'INTERNAL_ERROR']);
  });

  test('a store that stops answering before execution: DEPENDENCY_UNAVAILABLE, retry with the key', async () => {
    const { gateway, ledger, audit } = gatewayWith(
      failingIdempotency(() => Object.assign(new Error('connect refused'), { code: 'ECONNREFUSED' })),
    );
    const envelope = (
      await gateway.call({ name: 'probe_note', arguments: { text: 'hi', idempotency_key: KEY } }, principal)
    ).envelope;
    const [entry] = audit.entries;
    expect(audit.entries).toHaveLength(1);
    expect(JSON.stringify(envelope)).toBe(
      failed('probe_note', {
        code: 'DEPENDENCY_UNAVAILABLE',
        category: 'dependency',
        message: `The gateway's database is not answering (correlation id ${entry!.correlationId}); nothing was executed.`,
        retryable: true,
        resolution: 'Retry later with the same idempotency_key.',
      }),
    );
    expect(ledger.executions).toEqual({});
    expect([entry!.status, entry!.code, entry!.detail?.retryable]).toEqual([
      'failed',
      'DEPENDENCY_UNAVAILABLE',
      true,
    ]);
  });
});
