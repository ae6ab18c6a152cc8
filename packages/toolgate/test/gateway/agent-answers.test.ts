import { ProtocolError } from '@modelcontextprotocol/client';
import { simulationWorld } from '@toolgate/simulation';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { newProbeLedger, probeReader, probeTools } from '../../../../test/gateway/probe-tools.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { defineTool } from '../../src/contract/define-tool.ts';
import type { FieldError } from '../../src/contract/envelope.ts';
import { defineErrorCodes } from '../../src/contract/error-catalog.ts';
import { outcome, type ToolOutcome } from '../../src/contract/outcome.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import { fieldErrorsOf, MAX_FIELD_ERRORS } from '../../src/gateway/field-errors.ts';

/** One field per kind of zod issue, so that every kind can be provoked through MCP. */
const everyKind = defineTool({
  name: 'probe_kinds',
  title: 'Every kind of field',
  description: 'Takes one field of every constraint kind, so the tests can provoke each kind of field error.',
  kind: 'read',
  version: '1.0.0',
  input: z.strictObject({
    count: z.number().int().min(1).max(10).optional().describe('An integer 1-10.'),
    name: z.string().min(2).max(5).optional().describe('2-5 characters.'),
    color: z.enum(['red', 'blue']).optional().describe('red or blue.'),
    code: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional()
      .describe('Three capitals.'),
    link: z.url().optional().describe('A URL.'),
    step: z.number().multipleOf(5).optional().describe('A multiple of 5.'),
    either: z
      .union([z.string().max(3), z.number()])
      .optional()
      .describe('A short string or a number.'),
    list: z.array(z.number()).max(2).optional().describe('At most two numbers.'),
    flag: z.boolean().optional().describe('true or false.'),
    odd: z
      .number()
      .refine((v) => v % 2 === 1, { message: 'Must be odd.', params: { code: 'NOT_ODD' } })
      .optional()
      .describe('An odd number.'),
    needed: z.string().max(10).describe('Required.'),
    shade: z.enum(['light', 'dark']).describe('Required: light or dark.'),
  }),
  output: z.strictObject({ ok: z.boolean() }),
  errors: [],
  scopes: ['probe:read'],
  timeoutMs: 2_000,
  examples: [],
  handler: async () => outcome.completed({ ok: true }),
});

describe('answers that lead an agent to the right next step', () => {
  let gw: StartedGateway;
  const ledger = newProbeLedger();
  beforeAll(async () => {
    gw = await startGateway({
      modules: [],
      tools: [...probeTools(ledger), everyKind],
      principals: [probeReader],
    });
  });
  afterAll(() => gw.close());

  const errorsFor = async (args: Record<string, unknown>) => {
    const envelope = await gw.callTool('probe_reader', 'probe_kinds', {
      needed: 'x',
      shade: 'light',
      ...args,
    });
    expect(envelope).toMatchObject({ status: 'failed', code: 'INVALID_ARGUMENT' });
    return envelope.field_errors;
  };
  const only = async (args: Record<string, unknown>): Promise<FieldError> => {
    const errors = await errorsFor(args);
    expect(errors).toHaveLength(1);
    return errors[0]!;
  };

  test('a present value of the wrong type says expected and got, never "missing"', async () => {
    expect(await only({ count: '3' })).toEqual({
      field: 'count',
      code: 'INVALID_TYPE',
      message: 'Expected a number, got the string "3" (send it without quotes).',
    });
    expect(await only({ count: 3.5 })).toMatchObject({
      code: 'INVALID_TYPE',
      message: 'Expected an integer, got the number 3.5.',
    });
    expect(await only({ flag: 'false' })).toMatchObject({
      code: 'INVALID_TYPE',
      message: expect.stringContaining('Expected true or false'),
    });
    expect(await only({ count: null })).toMatchObject({
      code: 'INVALID_TYPE',
      message: 'Expected a number, got null.',
    });
    expect(await only({ name: ['a'] })).toMatchObject({
      code: 'INVALID_TYPE',
      message: 'Expected a string, got an array.',
    });
    const missing = (await gw.callTool('probe_reader', 'probe_kinds', {})).field_errors;
    // A missing enum field is missing, not a value outside the enum.
    expect(missing).toEqual([
      { field: 'needed', code: 'REQUIRED', message: 'Required field is missing.' },
      { field: 'shade', code: 'REQUIRED', message: 'Required field is missing; one of: "light", "dark".' },
    ]);
  });

  test('every other kind of problem is named for what it is', async () => {
    expect(await only({ name: 'toolong' })).toMatchObject({
      code: 'TOO_BIG',
      message: 'Too long: at most 5 character(s) (got 7).',
    });
    expect(await only({ name: 'a' })).toMatchObject({
      code: 'TOO_SMALL',
      message: 'Too short: at least 2 character(s) (got 1).',
    });
    expect(await only({ count: 11 })).toMatchObject({
      code: 'TOO_BIG',
      message: 'Must be at most 10; got the number 11.',
    });
    expect(await only({ list: [1, 2, 3] })).toMatchObject({
      code: 'TOO_BIG',
      message: 'Too many: at most 2 item(s) (got 3).',
    });
    expect(await only({ color: 'green' })).toMatchObject({
      code: 'NOT_ALLOWED',
      message: 'Must be one of: "red", "blue"; got the string "green".',
    });
    expect(await only({ code: 'abc' })).toMatchObject({
      code: 'INVALID_FORMAT',
      message: 'Does not match the pattern /^[A-Z]{3}$/.',
    });
    expect(await only({ link: 'not a url' })).toMatchObject({
      code: 'INVALID_FORMAT',
      message: 'Not a valid URL.',
    });
    expect(await only({ step: 7 })).toMatchObject({
      code: 'NOT_MULTIPLE_OF',
      message: 'Must be a multiple of 5; got the number 7.',
    });
    expect(await only({ either: true })).toMatchObject({ code: 'NO_MATCHING_FORM' });
    expect(await only({ odd: 2 })).toMatchObject({ code: 'NOT_ODD', message: 'Must be odd.' });
    expect(await only({ colour: 'red' })).toMatchObject({ field: 'colour', code: 'UNKNOWN_FIELD' });
  });

  test('record keys and collection elements (not reachable from closed tool inputs) are named too', () => {
    const record = z.record(z.string().regex(/^t_/), z.number()).safeParse({ x: 1 }, { reportInput: true });
    const set = z.set(z.number()).safeParse(new Set(['a']), { reportInput: true });
    const map = z.map(z.string().max(1), z.number()).safeParse(new Map([['long', 1]]), { reportInput: true });
    const errors = [record, set, map].flatMap((r) => fieldErrorsOf(r.error!.issues, () => []));
    expect(errors.map((e) => e.code)).toEqual(['INVALID_KEY', 'INVALID_TYPE', 'TOO_BIG']);
    expect(errors[0]!.message).toBe('The key is not allowed here: Invalid string: must match pattern /^t_/.');
  });

  test('a flood of unknown fields answers a bounded list, and a caller without the scopes learns nothing of the schema', async () => {
    // Just under the bound on a body's keys (a body over it is refused before it is parsed).
    const flood = Object.fromEntries(Array.from({ length: 9_000 }, (_, i) => [`junk_${i}`, i]));
    const client = await gw.client('probe_reader');
    const result = await client.callTool({ name: 'probe_echo', arguments: { text: 'hi', ...flood } });
    const envelope = result.structuredContent as { field_errors: FieldError[] };
    expect(envelope.field_errors).toHaveLength(MAX_FIELD_ERRORS + 1);
    expect(envelope.field_errors.at(-1)).toMatchObject({
      code: 'MORE_PROBLEMS',
      message: `${9_000 - MAX_FIELD_ERRORS} more problem(s) not listed; fix the ones above and call again.`,
    });
    expect(JSON.stringify(result).length).toBeLessThan(20_000);

    const outsider = await gw.client({
      sub: 'nobody',
      tenant: 'tenant_probe',
      actor: 'customer',
      scopes: [],
    });
    const refused = (await outsider.callTool({ name: 'probe_echo', arguments: { text: 5, ...flood } }))
      .structuredContent as { code: string; field_errors: unknown[] };
    expect(refused).toMatchObject({ status: 'failed', code: 'FORBIDDEN', field_errors: [] });
    expect(JSON.stringify(refused)).not.toContain('allowed fields');
    expect(ledger.executions.probe_echo ?? 0).toBe(0);
  });

  test('an unknown tool is a plain -32602 message naming the closest tools the caller may use', async () => {
    const client = await gw.client('probe_reader');
    const error = await client.callTool({ name: 'probe_ecko', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    const { message } = error as ProtocolError;
    expect(message).toMatch(
      /^No tool is named "probe_ecko"\. Closest tools you may use: probe_echo, [a-z_, ]+\. tools\/list lists them all\.$/,
    );
    expect(message).not.toContain('probe_admin_echo');
  });
});

describe('tools/list per principal', () => {
  let gw: StartedGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw.close());

  const names = async (principal: string) =>
    (await (await gw.client(principal)).listTools()).tools.map((t) => t.name).sort();

  test('each principal is offered the tools its scopes allow; others still answer FORBIDDEN', async () => {
    const customer = await names('acme-customer-alice');
    expect(customer).toEqual(['operations_get', 'orders_change_unshipped_address', 'orders_get']);
    expect(customer).not.toContain('change_create');
    const forbidden = await gw.callTool('acme-customer-alice', 'change_create', {
      service_id: 'checkout-web',
      environment: 'test',
      dry_run: false,
      idempotency_key: 'hidden-tool-call-0001',
    });
    expect(forbidden).toMatchObject({ status: 'failed', code: 'FORBIDDEN', operation_id: null });
    // Refused before anything: no operation reserved, nothing reached the change platform.
    expect(await simulationWorld(gw.app.db).ledger.list({ system: 'change_platform' })).toEqual([]);
    expect(await gw.app.db.query('SELECT id FROM operations')).toEqual([]);
    const engineer = await names('changes_engineer');
    expect(engineer).toContain('change_create');
    expect(engineer).not.toContain('orders_change_unshipped_address');
  });
});

describe('one code, one status', () => {
  const codes = defineErrorCodes({
    THING_FORBIDDEN_HERE: {
      category: 'authorization',
      retryable: false,
      description: 'Not for this caller.',
    },
    THING_GONE: { category: 'not_found', retryable: false, description: 'No such thing.' },
  });
  const refusing = (name: string, answer: () => ToolOutcome<{ ok: boolean }>) =>
    defineTool({
      name,
      title: 'Refuse',
      description: 'Refuses in a fixed way, so the tests can check the status a code is answered with.',
      kind: 'read',
      version: '1.0.0',
      input: z.strictObject({}),
      output: z.strictObject({ ok: z.boolean() }),
      errors: [codes.THING_FORBIDDEN_HERE, codes.THING_GONE],
      scopes: ['probe:read'],
      timeoutMs: 1_000,
      examples: [],
      handler: async () => answer(),
    });
  let gw: StartedGateway;
  beforeAll(async () => {
    gw = await startGateway({
      modules: [],
      principals: [probeReader],
      tools: [
        refusing('probe_refuse_authority', () => outcome.rejected('THING_FORBIDDEN_HERE', 'No.')),
        refusing('probe_refuse_missing', () => outcome.failed('THING_GONE', 'Gone.')),
        refusing('probe_confirm_missing', () => outcome.requiresConfirmation('THING_GONE', 'Gone?')),
      ],
    });
  });
  afterAll(() => gw.close());

  test('a refusal takes the status its code declares, with the matching isError, whatever the handler said', async () => {
    const client = await gw.client('probe_reader');
    const authority = await client.callTool({ name: 'probe_refuse_authority', arguments: {} });
    expect(authority.structuredContent).toMatchObject({ status: 'failed', code: 'THING_FORBIDDEN_HERE' });
    expect(authority.isError).toBe(true);
    const missing = await client.callTool({ name: 'probe_refuse_missing', arguments: {} });
    expect(missing.structuredContent).toMatchObject({ status: 'rejected', code: 'THING_GONE' });
    expect(missing.isError).toBe(false);
  });

  test('a code answered with a status that does not fit it at all is a visible contract violation', async () => {
    expect(await gw.callTool('probe_reader', 'probe_confirm_missing', {})).toMatchObject({
      status: 'failed',
      code: 'OUTPUT_CONTRACT_VIOLATION',
    });
  });

  test('the registry refuses one code declared with two statuses', () => {
    const [a, b] = ['probe_twice_a', 'probe_twice_b'].map((name, i) =>
      defineTool({
        ...refusing(name, () => outcome.completed({ ok: true })),
        errors: [
          {
            code: 'TWICE_DECLARED',
            category: 'state',
            retryable: false,
            description: 'Twice.',
            ...(i ? { status: 'failed' as const } : {}),
          },
        ],
      }),
    );
    expect(() => new ToolRegistry({ retentionSeconds: 60 }).register(a!, b!)).toThrow(
      /TWICE_DECLARED .*\[error-code-meaning\]/,
    );
  });
});
