import { faultSpecSchema } from '@toolgate/simulation';
import { ACTORS, TOOL_KINDS } from 'toolgate/server';
import { z } from 'zod';
import { callPatternSchema } from './call-pattern.ts';
import { CLAIMS } from './claim.ts';
import { ruleLayerSchema } from './rules/rule-schema.ts';

/**
 * The families of seed 003's evaluation matrix, the seed 000 races, and the person's own confirmation
 * through the client (accepted, declined, a choice).
 */
export const SCENARIO_FAMILIES = [
  'direct_success',
  'missing_information',
  'wrong_tool',
  'dry_run_workflow',
  'policy_rejection',
  'safe_retry',
  'idempotency_conflict',
  'authorization',
  'dependency_failure',
  'result_interpretation',
  'injection_attempt',
  'output_regression',
  'race_lock_after_read',
  'race_correction_confirmation',
  'race_redirect_after_handoff',
  'person_confirmation',
  'rate_limited',
] as const;
export type ScenarioFamily = (typeof SCENARIO_FAMILIES)[number];

const name = z.string().min(1).max(80);
/** Any JSON value; strings may hold `{{templates}}`. */
const jsonValue = z.json();

/** The moment a world action happens, counted in calls through the MCP client. */
export const momentSchema = z.union([
  z.strictObject({ before_call: name, nth: z.number().int().min(1).default(1) }),
  z.strictObject({ after_call: name, nth: z.number().int().min(1).default(1) }),
]);
export type Moment = z.infer<typeof momentSchema>;

/**
 * A change to the world: a fault armed in an external system (`skip` lets that many matching
 * external calls through first, so "on the Nth call to the warehouse" is `skip: N-1`), a domain
 * world action, or a shift of the clock.
 */
export const worldActionSchema = z.union([
  z.strictObject({ fault: faultSpecSchema }),
  z.strictObject({
    simulate: z.strictObject({
      target: name,
      action: name,
      params: z.record(z.string(), jsonValue).default({}),
    }),
  }),
  z.strictObject({ shift_clock_ms: z.number().int() }),
  z.strictObject({
    /**
     * Lowers the gateway's per-principal rate for the trial's principal and one class of tools, with
     * the bucket already spent: its next call of that class is refused `RATE_LIMITED` and told how
     * long to wait (one to two calls' worth at this rate).
     */
    rate_limit: z.strictObject({
      tool_kind: z.enum(TOOL_KINDS),
      per_second: z.number().min(0.5).max(100),
    }),
  }),
]);
export type WorldAction = z.infer<typeof worldActionSchema>;

export const triggerSchema = z.strictObject({ when: momentSchema, do: z.array(worldActionSchema).min(1) });

/**
 * A check on the final state of the world. `effects` counts ledger entries; `sql` reads domain tables
 * (portable SQL with `?` params); `probe` calls a read tool as a principal and matches the envelope.
 * Counts use `count` (exact) or `min`/`max`; `fields` match the first row / effect data / envelope paths.
 */
/** A read tool called after the run, as a principal of the scenario, whose answer is checked. */
const probeSchema = z.strictObject({
  tool: name,
  principal: name.optional(),
  args: z.record(z.string(), jsonValue).default({}),
});

export const stateCheckSchema = z.strictObject({
  name: z.string().max(120).optional(),
  effects: z
    .strictObject({ system: name.optional(), action: name.optional(), ref: z.string().optional() })
    .optional(),
  sql: z.string().max(2000).optional(),
  params: z.array(jsonValue).default([]),
  probe: probeSchema.optional(),
  count: z.number().int().min(0).optional(),
  min: z.number().int().min(0).optional(),
  max: z.number().int().min(0).optional(),
  fields: z.record(z.string(), jsonValue).optional(),
});
export type StateCheck = z.infer<typeof stateCheckSchema>;

/** What a correct final answer states, with its value taken from the world after the run. */
export const answerCheckSchema = z.strictObject({
  /** What the value is, for the reason ("the order's fulfilment state"). */
  what: z.string().min(1).max(120),
  /** The value, as a template over the fixtures; or read with `probe` at `path`. */
  value: jsonValue.optional(),
  probe: probeSchema.optional(),
  path: z.string().min(1).max(200).optional(),
  /** Per value the world may hold, the phrases that state it; without, the value as written. */
  says: z.record(z.string(), z.array(z.string().min(1).max(120)).min(1)).optional(),
  /** A regular expression for values of this kind, to name the one the message gave instead. */
  like: z.string().min(1).max(200).optional(),
  /**
   * The message must state the value (the default); `false`: it need not, but a value of this kind it
   * states must be the world's (a ZIP, a priority, an id the message may leave out).
   */
  required: z.boolean().default(true),
});
export type AnswerCheck = z.infer<typeof answerCheckSchema>;

/** One step of the reference trajectory: a tool call, or a question to the (scripted) user. */
export const referenceStepSchema = z.union([
  z.strictObject({
    id: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .optional(),
    tool: name,
    args: z.record(z.string(), jsonValue).default({}),
    meta: z.record(z.string(), jsonValue).optional(),
    /** Repeat the call (same arguments) until the envelope matches, e.g. polling operations_get. */
    until: z
      .strictObject({
        fields: z.record(z.string(), jsonValue),
        attempts: z.number().int().min(1).max(50).default(10),
        interval_ms: z.number().int().min(0).max(5000).default(50),
      })
      .optional(),
  }),
  z.strictObject({
    id: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/)
      .optional(),
    ask: z.string().min(1).max(500),
  }),
]);
export type ReferenceStep = z.infer<typeof referenceStepSchema>;

/**
 * How the person answers a confirmation the gateway asks through the client (elicitation): accept
 * (choosing `choice` when the question offers options), decline or cancel. With `expect_shown`, the
 * person declines a question that does not mention each text, the way a person declines a
 * confirmation of something other than what they asked for.
 */
export const confirmationScriptSchema = z.strictObject({
  answer: z.enum(['accept', 'decline', 'cancel']),
  choice: z.string().min(1).max(80).optional(),
  expect_shown: z.array(z.string().min(1).max(200)).default([]),
});
export type ConfirmationScript = z.infer<typeof confirmationScriptSchema>;

/**
 * A fact the user gives in their own words (the request or a reply), with what it means: the value
 * every consequential call must carry. `value` is a matcher (default: text containing `says`); with
 * `arg` it must match at that argument path, without it some argument anywhere must match. `tools`
 * limits the fact to those tools' calls (default: every consequential call).
 */
export const userFactSchema = z.strictObject({
  says: z.string().min(1).max(200),
  meaning: z.string().min(1).max(200),
  arg: z.string().min(1).max(200).optional(),
  /** A matcher; templates resolve relative things from the world (a service's next window). */
  value: jsonValue.optional(),
  tools: z.array(name).min(1).optional(),
  /**
   * A step the user asked for before the change ("validate first", "show me before creating"): a
   * call matching it must come before the first consequential call the fact applies to. A fact with
   * only `first` states no value.
   */
  first: callPatternSchema.optional(),
});
export type UserFact = z.infer<typeof userFactSchema>;

export const principalRefSchema = z.union([
  name,
  z.strictObject({ name, without_scopes: z.array(z.string()).default([]) }),
  /** A caller of its own, for a config whose tools call real services and bring no demo principals. */
  z.strictObject({
    name,
    subject: z.string().min(1).max(200),
    tenant: z.string().min(1).max(200),
    actor: z.enum(ACTORS).default('customer'),
    scopes: z.array(z.string().min(1).max(200)).default([]),
    groups: z.array(z.string().min(1).max(200)).default([]),
  }),
]);
export type PrincipalRef = z.infer<typeof principalRefSchema>;

export const scenarioSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{2,79}$/, 'lowercase letters, digits and dashes'),
  title: z.string().min(1).max(200),
  domain: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/)
    .max(40),
  family: z.enum(SCENARIO_FAMILIES),
  principal: principalRefSchema,
  /**
   * Write calls that prepare without executing (drafts), beyond dry runs (`dry_run: true`), which
   * always do: they are not consequential for the confirmation and claim rules.
   */
  prepare: z.array(callPatternSchema).default([]),
  /** The user's request, as the agent receives it. */
  request: z.string().min(1).max(2000),
  /** Answers the scripted user gives, in order, whenever the agent asks a question. */
  user_replies: z.array(z.string().min(1).max(2000)).default([]),
  /**
   * What the user answers, at most twice, once `user_replies` are used up; null for nothing. Absent: a
   * "go ahead as I asked" when the scenario has no `user_replies`, nothing when it has some.
   */
  user_default_reply: z.string().min(1).max(2000).nullable().optional(),
  /** What the user's words state (values with their meaning), checked by `arguments_match_user`. */
  user_facts: z.array(userFactSchema).default([]),
  /** The person's answers to confirmations the client asks them, in order; the last one repeats. */
  confirmations: z.array(confirmationScriptSchema).default([]),
  setup: z.array(worldActionSchema).default([]),
  triggers: z.array(triggerSchema).default([]),
  expect: z.strictObject({
    must_call: z.array(callPatternSchema).default([]),
    must_not_call: z.array(callPatternSchema).default([]),
    /** Tools an agent may call without it counting as unnecessary (reads, polling). */
    may_call: z.array(name).default([]),
    /** Pairs [earlier, later]: the first match of `earlier` precedes the first match of `later`. */
    order: z.array(z.tuple([callPatternSchema, callPatternSchema])).default([]),
    max_calls: z.number().int().min(0).max(100),
    /** Older spelling of `rules: { confirm_before_execute: { after: [request, ...] } }`. */
    asks_user: z.boolean().default(false),
    claim: z.union([z.enum(CLAIMS), z.array(z.enum(CLAIMS)).min(1)]),
    /**
     * The right answer may be a refusal without any tool call (an unsafe request): such a message
     * passes when it refuses and names one of `because`, in place of the calls above.
     */
    refusal: z.strictObject({ because: z.array(z.string().min(1).max(80)).min(1).max(20) }).optional(),
    /** Trajectory rules on top of the family's defaults: `false` off, `true` on, or parameters. */
    rules: ruleLayerSchema.default({}),
    /** The task outcome: what the world must look like when the agent did the right thing. */
    state: z.array(stateCheckSchema).default([]),
    /** What the final message must state, with values the world holds after the run. */
    answer: z.array(answerCheckSchema).default([]),
    /** Invariants that must hold whatever the agent does; a violation is an unsafe effect. */
    safety: z.array(stateCheckSchema).min(1),
  }),
  reference: z.strictObject({
    steps: z.array(referenceStepSchema),
    claim: z.enum(CLAIMS),
    answer: z.string().max(2000).optional(),
  }),
  tags: z.array(z.string().max(40)).default([]),
});
export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;

/**
 * `domains.yaml` at the scenario root: per domain, what every scenario of that domain shares (its
 * preparatory tools, rule parameters such as claim evidence). A scenario's own settings stack on top.
 */
export const domainDefaultsSchema = z.record(
  z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/)
    .max(40),
  z.strictObject({
    prepare: z.array(callPatternSchema).default([]),
    rules: ruleLayerSchema.default({}),
  }),
);
export type DomainDefaults = z.infer<typeof domainDefaultsSchema>;

export const SPLITS = ['dev', 'holdout'] as const;
export type Split = (typeof SPLITS)[number];

/** A scenario as loaded from disk: where it came from and which split it belongs to. */
export interface LoadedScenario extends Scenario {
  readonly split: Split;
  readonly file: string;
}
