import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BackendResult } from '../../src/backend/backend-failure.ts';
import { backendOutcome } from '../../src/backend/backend-outcome.ts';
import { defineTool } from '../../src/contract/define-tool.ts';
import { defineErrorCodes } from '../../src/contract/error-catalog.ts';
import { outcome, type ToolOutcome } from '../../src/contract/outcome.ts';
import { outcomeContractProblems } from '../../src/contract/outcome-contract.ts';
import { idempotencyKeySchema } from '../../src/contract/schema-helpers.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';

const itemErrors = defineErrorCodes({
  ITEM_LOCKED: {
    category: 'state',
    retryable: false,
    description: 'The item is locked; nothing was changed.',
  },
});
const output = z.strictObject({ state: z.string() });

// A write tool that declares only its own refusal code: the kit's other codes are the gateway's.
const registry = new ToolRegistry({ retentionSeconds: 60 }).register(
  defineTool({
    name: 'items_update',
    title: 'Update an item',
    description: 'Updates an item at the item service; used here to check outcomes against the contract.',
    kind: 'write',
    mutation: 'update',
    version: '1.0.0',
    input: z.strictObject({ idempotency_key: idempotencyKeySchema }),
    output,
    errors: [itemErrors.ITEM_LOCKED],
    scopes: ['items:write'],
    timeoutMs: 1_000,
    examples: [],
    handler: async () => outcome.completed({ state: 'x' }),
    reconcile: async () => ({ settled: false, note: 'test' }),
  }),
);
const tool = registry.get('items_update')!;

const results: Record<BackendResult<{ state: string }>['kind'], BackendResult<{ state: string }>> = {
  ok: { kind: 'ok', status: 200, body: { state: 'done' } },
  rejected: {
    kind: 'rejected',
    status: 423,
    code: 'ITEM_LOCKED',
    message: 'The item is locked.',
    resolution: 'Ask the owner to unlock it.',
    outcomeStatus: 'rejected',
    body: {},
  },
  unavailable: { kind: 'unavailable', reason: 'could not connect (ECONNREFUSED) (3 attempts)' },
  unknown: { kind: 'unknown', reason: 'no answer within 200 ms (1 attempt)' },
  contract_violation: {
    kind: 'contract_violation',
    status: 200,
    problems: ['state: x'],
    mayHaveApplied: true,
  },
  unexpected_status: { kind: 'unexpected_status', status: 401 },
};

function check(
  result: BackendResult<{ state: string }>,
  logged: object[] = [],
): ToolOutcome<{ state: string }> {
  const log = { warn: (details: object) => logged.push(details) };
  const answer = backendOutcome(result, (body) => outcome.completed({ state: body.state }), {
    system: 'the item service',
    correlationId: 'corr-9',
    log,
  });
  expect(outcomeContractProblems(tool, answer, 'execute').problems).toEqual([]);
  return answer;
}

describe('backendOutcome', () => {
  it.each([
    ['ok', 'completed', undefined],
    ['rejected', 'rejected', 'ITEM_LOCKED'],
    ['unavailable', 'failed', 'DEPENDENCY_UNAVAILABLE'],
    ['unknown', 'outcome_unknown', 'OUTCOME_UNKNOWN'],
    ['contract_violation', 'outcome_unknown', 'OUTPUT_CONTRACT_VIOLATION'],
    ['unexpected_status', 'failed', 'INTERNAL_ERROR'],
  ] as const)('turns %s into %s %s, valid for a tool declaring only its own codes', (kind, status, code) => {
    const answer = check(results[kind]);
    expect(answer.status).toBe(status);
    expect('code' in answer ? answer.code : undefined).toBe(code);
  });

  it('answers failed for a broken answer that applied nothing', () => {
    const answer = check({ kind: 'contract_violation', status: 200, problems: [], mayHaveApplied: false });
    expect(answer).toMatchObject({ status: 'failed', code: 'OUTPUT_CONTRACT_VIOLATION' });
  });

  it('keeps requires_confirmation, the message and the resolution of a mapped refusal', () => {
    const refusal = { ...results.rejected, outcomeStatus: 'requires_confirmation' } as const;
    expect(backendOutcome(refusal, () => outcome.completed(null))).toEqual({
      status: 'requires_confirmation',
      code: 'ITEM_LOCKED',
      message: 'The item is locked.',
      resolution: 'Ask the owner to unlock it.',
    });
  });

  it('tells the agent what to do next in one sentence, without the detail; the log gets the detail', () => {
    const logged: object[] = [];
    const unavailable = check(results.unavailable, logged);
    expect(unavailable).toMatchObject({
      message: 'The item service could not be reached; nothing was changed.',
      resolution: expect.stringContaining('same idempotency_key'),
    });
    const unknown = check(results.unknown, logged);
    expect('resolution' in unknown && unknown.resolution).toMatch(
      /Do not start a new operation.*operations_get/,
    );
    const internal = check(results.unexpected_status, logged);
    expect(internal.message).toContain('corr-9');
    for (const answer of [unavailable, unknown, internal]) {
      expect(answer.message).not.toMatch(/ECONNREFUSED|200 ms|401|http/);
    }
    expect(logged).toEqual([
      expect.objectContaining({
        kind: 'unavailable',
        reason: results.unavailable.kind === 'unavailable' && results.unavailable.reason,
      }),
      expect.objectContaining({ kind: 'unknown' }),
      expect.objectContaining({ kind: 'unexpected_status', status: 401, corr: 'corr-9' }),
    ]);
  });

  it('writes corr once on a log line of a logger already bound to it (ctx.log)', () => {
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }).child({
      corr: 'corr-7',
    });
    backendOutcome(results.unavailable, () => outcome.completed(null), { correlationId: 'corr-7', log });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.match(/"corr":/g)).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ corr: 'corr-7', kind: 'unavailable' });
  });

  it('hands the body and status to onOk', () => {
    const seen: unknown[] = [];
    backendOutcome({ kind: 'ok', status: 201, body: { state: 'new' } }, (body, status) => {
      seen.push(body, status);
      return outcome.completed(body);
    });
    expect(seen).toEqual([{ state: 'new' }, 201]);
  });
});
