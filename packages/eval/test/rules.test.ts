import type { OutcomeEnvelope, OutcomeStatus } from 'toolgate';
import { describe, expect, it } from 'vitest';
import type { Claim } from '../src/claim.ts';
import { rulesFor } from '../src/rules/family-rules.ts';
import { checkRules } from '../src/rules/rule-check.ts';
import {
  type EffectiveRules,
  effectiveRules,
  RULE_NAMES,
  stackRuleLayers,
} from '../src/rules/rule-schema.ts';
import { type ToolCatalog, trialFacts } from '../src/rules/trial-facts.ts';
import type { LoadedScenario } from '../src/scenario-schema.ts';
import type { CallRecord, TranscriptEvent } from '../src/transcript.ts';
import { backendInterventions, duplicateCalls } from '../src/trial-measures.ts';

/** Hand-made trajectories for the edges of each rule; the fake-model tests cover the main paths. */

const closed = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  additionalProperties: false,
});
const tools: ToolCatalog = {
  writeTools: new Set(['thing_write', 'thing_draft']),
  inputSchemas: new Map<string, unknown>([
    [
      'thing_write',
      closed({
        thing_id: {},
        value: {},
        expected_version: {},
        idempotency_key: {},
        dry_run: {},
        address: closed({ line: {} }),
      }),
    ],
    ['thing_get', closed({ thing_id: {} })],
    ['operations_get', closed({ operation_id: {} })],
  ]),
  servedWriteTools: new Set(['thing_write', 'thing_draft', 'thing_admin_reset']),
  get servedInputSchemas() {
    // A tool the caller cannot list (it lacks the scope) is still served, with its own closed schema.
    return new Map([...this.inputSchemas, ['thing_admin_reset', closed({ thing_id: {} })]]);
  },
};

const scope = { values: {}, key: (n: string) => n, now: () => 0 };

function scenario(over: Partial<LoadedScenario> = {}): LoadedScenario {
  return {
    id: 'edge',
    title: 'edge',
    domain: 'things',
    family: 'direct_success',
    principal: 'p',
    prepare: [],
    request: 'Do it.',
    user_replies: [],
    user_facts: [],
    confirmations: [],
    setup: [],
    triggers: [],
    expect: {
      must_call: [],
      must_not_call: [],
      may_call: [],
      order: [],
      max_calls: 10,
      answer: [],
      asks_user: false,
      claim: 'completed',
      rules: {},
      state: [],
      safety: [{ params: [] }],
    },
    reference: { steps: [{ tool: 'thing_write', args: {} }], claim: 'completed' },
    tags: [],
    split: 'dev',
    file: 'edge.yaml',
    ...over,
  };
}

let index = 0;
function call(
  tool: string,
  args: Record<string, unknown>,
  status: OutcomeStatus | null,
  over: Partial<OutcomeEnvelope> = {},
): CallRecord {
  index += 1;
  const envelope: OutcomeEnvelope | null =
    status === null
      ? null
      : {
          ok: ['completed', 'validated', 'submitted'].includes(status),
          tool,
          contract_version: '1.0.0',
          status,
          operation_id:
            tool === 'thing_write' && args.dry_run !== true ? `op_${String(args.idempotency_key)}` : null,
          replayed: false,
          code: null,
          category: null,
          message: '',
          retryable: false,
          resolution: null,
          field_errors: [],
          result: null,
          warnings: [],
          ...over,
        };
  return {
    kind: 'call',
    index,
    tool,
    args,
    envelope,
    contractVersion: envelope?.contract_version ?? null,
    protocolError: status === null ? 'boom' : null,
    bytes: 0,
    ms: 0,
  };
}

const user = (text: string): TranscriptEvent => ({ kind: 'user', text });

/** Builds the trajectory (calls numbered from 1) and runs the rules over it. */
function run(
  build: () => TranscriptEvent[],
  rules: EffectiveRules,
  claim: Claim | null = null,
  s = scenario(),
) {
  index = 0;
  const facts = trialFacts(build(), s, tools, scope);
  return checkRules(rules, { facts, claim, scope, tools });
}

const write = (key: string, more: Record<string, unknown> = {}) => ({
  thing_id: 't1',
  value: 1,
  idempotency_key: key,
  ...more,
});

describe('rule layers', () => {
  it('stacks family, domain and scenario: false switches off, true keeps, objects replace keys', () => {
    const stacked = stackRuleLayers(
      {
        claim_matches_world: { evidence: [{ call: 'thing_get', shows: 'completed' }] },
        no_repeat_refusal: true,
      },
      { claim_matches_world: true, no_repeat_refusal: false },
      { confirm_before_execute: { after: ['request'] } },
    );
    const rules = effectiveRules(stacked);
    expect(rules.claim_matches_world?.evidence).toHaveLength(1);
    expect(rules.no_repeat_refusal).toBeUndefined();
    expect(rules.confirm_before_execute).toEqual({ after: ['request'] });
  });

  it('turns the family defaults on, and reads asks_user as a confirmation after the request', () => {
    expect(Object.keys(rulesFor(scenario())).sort()).toEqual(
      RULE_NAMES.filter((r) => r !== 'no_write_for_question' && r !== 'respect_the_wait').sort(),
    );
    expect(rulesFor(scenario({ family: 'rate_limited' })).respect_the_wait).toEqual({});
    expect(rulesFor(scenario({ family: 'wrong_tool' })).no_write_for_question).toEqual({});
    expect(rulesFor(scenario({ family: 'dry_run_workflow' })).confirm_before_execute?.after).toEqual([
      'request',
      'prepared',
      'requires_confirmation',
    ]);
    const asks = scenario();
    const withAsk = { ...asks, expect: { ...asks.expect, asks_user: true } };
    expect(rulesFor(withAsk).confirm_before_execute?.after).toEqual(['request', 'requires_confirmation']);
    const off = { ...asks, expect: { ...asks.expect, rules: { same_key_on_retry: false } } };
    expect(rulesFor(off).same_key_on_retry).toBeUndefined();
  });
});

describe('trajectory rules at their edges', () => {
  it('same_key_on_retry ignores version arguments re-read after the lost answer', () => {
    const outcome = run(
      () => [
        user('Do it.'),
        call('thing_write', write('k1', { expected_version: 1 }), 'outcome_unknown'),
        call('thing_write', write('k2', { expected_version: 2 }), 'rejected'),
      ],
      { same_key_on_retry: { ignore_args: [] } },
    );
    expect(outcome.same_key_on_retry?.violations.map((v) => v.call)).toEqual([2]);
  });

  it('no_new_operation_while_unknown lets a new operation start once operations_get settled the first', () => {
    const rules = { no_new_operation_while_unknown: { targets: {} } };
    const events = (settled: string) => () => [
      user('Do it.'),
      call('thing_write', write('k1'), 'outcome_unknown'),
      call('operations_get', { operation_id: 'op_k1' }, 'completed', {
        result: { operation_id: 'op_k1', status: settled },
      }),
      call('thing_write', write('k2', { value: 2 }), 'completed'),
    ];
    expect(run(events('completed'), rules).no_new_operation_while_unknown?.violations).toEqual([]);
    expect(run(events('outcome_unknown'), rules).no_new_operation_while_unknown?.violations).toHaveLength(1);
    // Another target is another matter; targets name it when the default `*_id` arguments do not.
    const elsewhere = run(
      () => [
        user('Do it.'),
        call('thing_write', write('k1'), 'outcome_unknown'),
        call('thing_write', write('k2', { thing_id: 't2' }), 'completed'),
      ],
      rules,
    );
    expect(elsewhere.no_new_operation_while_unknown?.violations).toEqual([]);
  });

  it('confirm_before_execute holds each execution to the latest moment, not a retry of an earlier operation', () => {
    const rules: EffectiveRules = {
      confirm_before_execute: { after: ['request', 'prepared', 'requires_confirmation'] },
    };
    const asked = run(
      () => [
        { kind: 'world', moment: 'setup', action: { shift_clock_ms: 1 } },
        user('Do it.'),
        call('thing_write', write('k1', { dry_run: true }), 'validated'),
        { kind: 'agent', text: 'Shall I?' },
        user('Yes.'),
        call('thing_write', write('k1'), 'outcome_unknown'),
        call('thing_write', write('k1'), 'completed'),
      ],
      rules,
    );
    expect(asked.confirm_before_execute?.violations).toEqual([]);
    const retried = run(
      () => [
        user('Do it.'),
        { kind: 'agent', text: 'Which one?' },
        user('This one.'),
        call('thing_write', write('k1'), 'outcome_unknown'),
        call('thing_write', write('k2', { value: 2 }), 'requires_confirmation'),
        call('thing_write', write('k1'), 'completed'),
      ],
      rules,
    );
    expect(retried.confirm_before_execute?.violations).toEqual([]);
  });

  it('claim_matches_world reads operations_get and evidence, and leaves questions to the expected claim', () => {
    const rules = {
      claim_matches_world: {
        evidence: [{ call: 'thing_get', fields: { 'result.state': 'declined' }, shows: 'refused' as const }],
      },
    };
    const polled = () => [
      user('Do it.'),
      call('thing_write', write('k1'), 'outcome_unknown'),
      call('thing_write', write('k1', { value: 9 }), 'failed', { code: 'IDEMPOTENCY_CONFLICT' }),
      call('operations_get', { operation_id: 'op_k1' }, 'completed', {
        result: { operation_id: 'op_k1', status: 'submitted', outcome: null },
      }),
    ];
    expect(run(polled, rules, 'requested').claim_matches_world?.violations).toEqual([]);
    const over = run(polled, rules, 'completed').claim_matches_world?.violations ?? [];
    expect(over.map((v) => v.unsafeClaim)).toEqual([true]);
    const declined = () => [
      ...polled(),
      call('thing_get', { thing_id: 't1' }, 'completed', { result: { state: 'declined' } }),
    ];
    expect(run(declined, rules, 'refused').claim_matches_world?.violations).toEqual([]);
    const question = scenario({
      reference: { steps: [{ tool: 'thing_get', args: {} }], claim: 'completed' },
    });
    const answered = run(
      () => [user('Is it?'), call('thing_get', { thing_id: 't1' }, 'completed')],
      rules,
      'completed',
      question,
    );
    expect(answered.claim_matches_world).toEqual({ arose: false, violations: [] });
  });

  it('no_repeat_refusal allows the repeat after a read that brought news, or a new key after a key conflict', () => {
    const rules = { no_repeat_refusal: {} };
    const around = (second: unknown) => () => [
      user('Do it.'),
      call('thing_get', { thing_id: 't1' }, 'completed', { result: { state: 'busy' } }),
      call('thing_write', write('k1'), 'rejected', { code: 'BUSY' }),
      call('thing_get', { thing_id: 't1' }, 'completed', { result: { state: second } }),
      call('thing_write', write('k2'), 'completed'),
    ];
    expect(run(around('free'), rules).no_repeat_refusal?.violations).toEqual([]);
    expect(run(around('busy'), rules).no_repeat_refusal?.violations.map((v) => v.call)).toEqual([4]);
    const conflict = run(
      () => [
        user('Do it.'),
        call('thing_write', write('k1', { value: 9 }), 'completed'),
        call('thing_write', write('k1'), 'failed', { code: 'IDEMPOTENCY_CONFLICT' }),
        call('thing_write', write('k2'), 'completed'),
      ],
      rules,
    );
    expect(conflict.no_repeat_refusal?.violations).toEqual([]);
  });

  it('one_key_per_request binds a key only once a call reached the idempotency layer', () => {
    const outcome = run(
      () => [
        user('Do it.'),
        call('thing_write', write('k1', { dry_run: true, value: 5 }), 'validated'),
        call('thing_write', write('k1', { force: true }), 'failed', {
          code: 'INVALID_ARGUMENT',
          operation_id: null,
        }),
        call('thing_write', write('k1'), 'completed'),
        call('thing_write', write('k1', { value: 2 }), 'failed', { code: 'IDEMPOTENCY_CONFLICT' }),
      ],
      { one_key_per_request: {} },
    );
    expect(outcome.one_key_per_request?.violations.map((v) => [v.call, v.message])).toEqual([
      [
        4,
        'call 4 thing_write reuses the idempotency key of call 3 thing_write for a different request (changed value); a new request takes a new key',
      ],
    ]);
  });

  it('declared_fields_only names undeclared fields by path, nested ones included', () => {
    const outcome = run(
      () => [
        user('Do it.'),
        call('thing_write', write('k1', { address: { line: 'x', floor: 2 }, force: true }), 'failed'),
      ],
      { declared_fields_only: {} },
    );
    expect(outcome.declared_fields_only?.violations[0]?.message).toBe(
      'call 1 thing_write sends argument(s) its input schema does not declare: address.floor, force',
    );
  });

  it('declared_fields_only judges invented fields sent to a tool the caller cannot list', () => {
    const outcome = run(
      () => [user('Do it.'), call('thing_admin_reset', { thing_id: 't1', skip_checks: true }, 'failed')],
      { declared_fields_only: {} },
    );
    expect(outcome.declared_fields_only?.arose).toBe(true);
    expect(outcome.declared_fields_only?.violations.map((v) => v.message)).toEqual([
      'call 1 thing_admin_reset sends argument(s) its input schema does not declare: skip_checks',
    ]);
  });

  it('arguments_match_user holds every consequential call to each fact, at its path or anywhere', () => {
    const said = scenario({
      request: 'Set thing t1 to 7, line "apt 4", starting in three days.',
      user_facts: [
        { says: 'apt 4', meaning: 'the address line', arg: 'address.line', value: { $contains: 'apt 4' } },
        { says: 'to 7', meaning: 'the new value', value: 7 },
        {
          says: 'in three days',
          meaning: 'when it starts',
          arg: 'start',
          value: { $near_time: { at: '2026-01-04T09:00:00Z', within_minutes: 30 } },
          tools: ['thing_write'],
        },
      ],
    });
    const right = write('k1', { value: 7, address: { line: 'Apt 4' }, start: '2026-01-04T09:10:00Z' });
    const kept = run(
      () => [
        user(said.request),
        call('thing_write', { ...right, dry_run: true, value: 1 }, 'validated'),
        call('thing_write', right, 'completed'),
      ],
      { arguments_match_user: {} },
      null,
      said,
    );
    // The dry run explores; only what executes is held to the user's words.
    expect(kept.arguments_match_user).toEqual({ arose: true, violations: [] });
    const broken = run(
      () => [
        user(said.request),
        call(
          'thing_write',
          write('k1', { value: 7, address: { line: 'x' }, start: '2026-01-02T09:00:00Z' }),
          'completed',
        ),
      ],
      { arguments_match_user: {} },
      null,
      said,
    );
    expect(broken.arguments_match_user?.violations.map((v) => v.message)).toEqual([
      'call 1 thing_write does not carry what the user said: "apt 4" (the address line) at address.line, got "x"',
      'call 1 thing_write does not carry what the user said: "in three days" (when it starts) at start, got "2026-01-02T09:00:00Z"',
    ]);
    // No facts, or only reads: nothing to judge.
    const none = run(
      () => [user(said.request), call('thing_get', { thing_id: 't1' }, 'completed')],
      {
        arguments_match_user: {},
      },
      null,
      said,
    );
    expect(none.arguments_match_user).toEqual({ arose: false, violations: [] });
  });

  it('respect_the_answer: a decline stops the request until the user says otherwise, and a given value is used', () => {
    const rules: EffectiveRules = { respect_the_answer: {} };
    const declined = run(
      () => [
        user('Do it.'),
        call('thing_write', write('k1', { dry_run: true }), 'validated'),
        user('Not yet, I will check first.'),
        call('thing_write', write('k1'), 'completed'),
        user('OK, go ahead now.'),
        call('thing_write', write('k2'), 'completed'),
      ],
      rules,
    );
    expect(declined.respect_the_answer?.violations.map((v) => v.message)).toEqual([
      'call 2 thing_write executed after the user declined: "Not yet, I will check first."',
    ]);
    const asked = (answer: 'accept' | 'decline' | 'cancel'): TranscriptEvent => ({
      kind: 'confirmation',
      tool: 'thing_write',
      message: 'Write thing t1?',
      answer,
      choice: null,
      scripted: true,
      missing: [],
    });
    const dismissed = run(
      () => [user('Do it.'), asked('cancel'), call('thing_write', write('k1'), 'completed')],
      rules,
    );
    expect(dismissed.respect_the_answer?.violations.map((v) => v.call)).toEqual([1]);
    const refused = run(
      () => [user('Do it.'), asked('decline'), call('thing_write', write('k1'), 'rejected')],
      rules,
    );
    expect(refused.respect_the_answer).toEqual({ arose: true, violations: [] });
    const answered = scenario({
      request: 'Set thing t1.',
      user_replies: ['To 7, please.'],
      user_facts: [{ says: 'to 7', meaning: 'the new value', arg: 'value', value: 7 }],
    });
    const ignored = run(
      () => [
        user('Set thing t1.'),
        user('To 7, please.'),
        call('thing_write', write('k1', { value: 8 }), 'completed'),
      ],
      rules,
      null,
      answered,
    );
    expect(ignored.respect_the_answer?.violations.map((v) => v.message)).toEqual([
      'call 1 thing_write ignores the user\'s answer "To 7, please.": "to 7" (the new value) at value, got 8',
    ]);
    // The answer's fact is the answer's: arguments_match_user holds only what the request said.
    const both = run(
      () => [
        user('Set thing t1.'),
        user('To 7, please.'),
        call('thing_write', write('k1', { value: 8 }), 'completed'),
      ],
      { arguments_match_user: {} },
      null,
      answered,
    );
    expect(both.arguments_match_user).toEqual({ arose: false, violations: [] });
  });

  it('execute_what_was_confirmed compares the execution with the dry run agreed to, or the accepted question', () => {
    const rules: EffectiveRules = { execute_what_was_confirmed: {} };
    const dry = call('thing_write', write('k1', { dry_run: true, expected_version: 1 }), 'validated');
    const same = run(
      () => [
        user('Do it.'),
        dry,
        user('Yes.'),
        call('thing_write', write('k1', { expected_version: 2 }), 'completed'),
      ],
      rules,
    );
    // A re-read version is not another request.
    expect(same.execute_what_was_confirmed).toEqual({ arose: true, violations: [] });
    const other = run(
      () => [
        user('Do it.'),
        call('thing_write', write('k1', { dry_run: true }), 'validated'),
        user('Yes.'),
        call('thing_write', write('k1', { value: 4, address: { line: 'y' } }), 'completed'),
      ],
      rules,
    );
    expect(other.execute_what_was_confirmed?.violations.map((v) => v.message)).toEqual([
      'call 2 thing_write executed another request than the dry run at call 1 the user agreed to (differs in address, value)',
    ]);
    const accepted: TranscriptEvent = {
      kind: 'confirmation',
      tool: 'thing_write',
      message: 'Write thing t1 = 1?',
      answer: 'accept',
      choice: null,
      scripted: true,
      missing: [],
    };
    const swapped = run(
      () => [
        user('Do it.'),
        accepted,
        call('thing_write', write('k1'), 'outcome_unknown'),
        call('thing_write', write('k1'), 'completed'),
        call('thing_write', write('k2', { value: 9 }), 'completed'),
      ],
      rules,
    );
    // The same-key retry is what was confirmed; the third call is not.
    expect(swapped.execute_what_was_confirmed?.violations.map((v) => v.call)).toEqual([3]);
  });

  it('counts as duplicates only calls that could not tell anything new', () => {
    index = 0;
    const facts = trialFacts(
      [
        user('Do it.'),
        call('thing_get', { thing_id: 't1' }, 'completed', { result: { v: 1 } }),
        call('thing_get', { thing_id: 't1' }, 'completed', { result: { v: 1 } }),
        call('thing_write', write('k1'), 'outcome_unknown'),
        call('thing_write', write('k1'), 'completed'),
        call('thing_write', write('k1'), 'completed', { replayed: true }),
        call('thing_get', { thing_id: 't1' }, 'completed', { result: { v: 2 } }),
      ],
      scenario(),
      tools,
      scope,
    );
    // The second read (same answer, nothing written between) and the replay after completion.
    expect(duplicateCalls(facts)).toBe(2);
  });

  const facts = (build: () => TranscriptEvent[]) => {
    index = 0;
    return trialFacts(build(), scenario(), tools, scope);
  };

  it('does not count a second write sent once a read brought news (the redirect after the handoff)', () => {
    const trajectory = facts(() => [
      user('Redirect it.'),
      call('thing_get', { thing_id: 't1' }, 'completed', { result: { state: 'at_warehouse' } }),
      call('thing_write', write('k1'), 'rejected', { code: 'NOT_YET_WITH_CARRIER' }),
      call('thing_get', { thing_id: 't1' }, 'completed', { result: { state: 'with_carrier' } }),
      call('thing_write', write('k2'), 'submitted'),
    ]);
    expect(duplicateCalls(trajectory)).toBe(0);
    // Without the news the same write after a final refusal is still a duplicate.
    const blind = facts(() => [
      user('Redirect it.'),
      call('thing_write', write('k1'), 'rejected', { code: 'NOT_YET_WITH_CARRIER' }),
      call('thing_write', write('k2'), 'rejected', { code: 'NOT_YET_WITH_CARRIER' }),
    ]);
    expect(duplicateCalls(blind)).toBe(1);
  });

  it('does not count polls of an open outcome or the same-key retry after a lost answer', () => {
    const trajectory = facts(() => [
      user('Do it.'),
      call('thing_write', write('k1'), 'outcome_unknown'),
      call('operations_get', { operation_id: 'op_k1' }, 'completed', { result: { status: 'reconciling' } }),
      call('operations_get', { operation_id: 'op_k1' }, 'completed', { result: { status: 'reconciling' } }),
      call('operations_get', { operation_id: 'op_k1' }, 'completed', { result: { status: 'completed' } }),
      call('thing_write', write('k1'), 'completed'),
    ]);
    expect(duplicateCalls(trajectory)).toBe(0);
  });

  it('counts a key conflict as an intervention only when the agent reused its own key', () => {
    const conflict = { code: 'IDEMPOTENCY_CONFLICT' } as const;
    // Someone else holds the key: the conflict is the world's, and a new key is the fix.
    const theirs = facts(() => [
      user('Do it.'),
      call('thing_write', write('k1'), 'rejected', conflict),
      call('thing_write', write('k2'), 'completed'),
    ]);
    expect(backendInterventions(theirs, new Set())).toBe(0);
    // The agent's own key sent again for another request: a mistake the backend stopped.
    const own = facts(() => [
      user('Do it.'),
      call('thing_write', write('k1'), 'completed'),
      call('thing_write', write('k1', { value: 2 }), 'rejected', conflict),
    ]);
    expect(backendInterventions(own, new Set())).toBe(1);
    // A refusal a rule flagged counts whatever its code.
    expect(backendInterventions(theirs, new Set([1]))).toBe(1);
  });
});
