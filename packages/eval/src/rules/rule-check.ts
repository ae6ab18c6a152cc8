import type { Claim } from '../claim.ts';
import type { TemplateScope } from '../template.ts';
import { argumentsMatchUser } from './arguments-match-user.ts';
import { claimMatchesWorld } from './claim-matches-world.ts';
import { confirmBeforeExecute } from './confirm-before-execute.ts';
import { declaredFieldsOnly } from './declared-fields-only.ts';
import { efficiency } from './efficiency.ts';
import { executeWhatWasConfirmed } from './execute-what-was-confirmed.ts';
import { noFabricatedIds } from './no-fabricated-ids.ts';
import { noNewOperationWhileUnknown } from './no-new-operation-while-unknown.ts';
import { noRepeatRefusal } from './no-repeat-refusal.ts';
import { noWriteForQuestion } from './no-write-for-question.ts';
import { oneKeyPerRequest } from './one-key-per-request.ts';
import { rereadAfterStateChange } from './reread-after-state-change.ts';
import { respectTheAnswer } from './respect-the-answer.ts';
import { respectTheWait } from './respect-the-wait.ts';
import { type EffectiveRules, RULE_NAMES, type RuleName, type RuleParams } from './rule-schema.ts';
import { sameKeyOnRetry } from './same-key-on-retry.ts';
import type { ToolCatalog, TrialFacts } from './trial-facts.ts';

/** One breach of a rule, at a call (or at the final claim), with the reason a person reads. */
export interface Violation {
  readonly rule: RuleName;
  /** The 1-based call it happened at; null for the final claim. */
  readonly call: number | null;
  readonly message: string;
  /** The claim says more happened than the agent saw: counted as an unsafe claim. */
  readonly unsafeClaim: boolean;
}

/** What one rule found in one trial. */
export interface RuleOutcome {
  /** The situation the rule is about came up (an unknown outcome, a refusal, a claim to judge). */
  readonly arose: boolean;
  readonly violations: readonly Violation[];
}

export interface RuleContext<R extends RuleName> {
  readonly facts: TrialFacts;
  readonly params: RuleParams[R];
  readonly claim: Claim | null;
  /** The agent's whole final message. */
  readonly answer?: string;
  readonly scope: TemplateScope;
  readonly tools: ToolCatalog;
}

type RuleCheck<R extends RuleName> = (context: RuleContext<R>) => RuleOutcome;

const CHECKS: { readonly [R in RuleName]: RuleCheck<R> } = {
  same_key_on_retry: sameKeyOnRetry,
  no_new_operation_while_unknown: noNewOperationWhileUnknown,
  confirm_before_execute: confirmBeforeExecute,
  claim_matches_world: claimMatchesWorld,
  no_repeat_refusal: noRepeatRefusal,
  one_key_per_request: oneKeyPerRequest,
  declared_fields_only: declaredFieldsOnly,
  arguments_match_user: argumentsMatchUser,
  execute_what_was_confirmed: executeWhatWasConfirmed,
  respect_the_answer: respectTheAnswer,
  no_fabricated_ids: noFabricatedIds,
  no_write_for_question: noWriteForQuestion,
  efficiency,
  respect_the_wait: respectTheWait,
  reread_after_state_change: rereadAfterStateChange,
};

/** Runs every rule in force over the trajectory, in the order of RULE_NAMES. */
export function checkRules(
  rules: EffectiveRules,
  context: Omit<RuleContext<RuleName>, 'params'>,
): Partial<Record<RuleName, RuleOutcome>> {
  const outcomes: Partial<Record<RuleName, RuleOutcome>> = {};
  for (const rule of RULE_NAMES) {
    const params = rules[rule];
    if (params === undefined) continue;
    const check = CHECKS[rule] as RuleCheck<RuleName>;
    outcomes[rule] = check({ ...context, params } as RuleContext<RuleName>);
  }
  return outcomes;
}

/** A violation at a call, as the rules report it. */
export function violationAt(rule: RuleName, call: number, message: string): Violation {
  return { rule, call, message, unsafeClaim: false };
}
