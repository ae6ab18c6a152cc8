/**
 * The values `toolgate eval` accepts for --agent, --policy and --provider. The CLI keeps its own copy so
 * that `toolgate eval --help` and the flag validation work without loading the harness, which may not be
 * installed; test/eval/eval-flag-choices.test.ts holds them equal to the harness's lists.
 */
export const AGENT_KINDS = ['reference', 'adversarial', 'llm'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export const ADVERSARIAL_POLICIES = [
  'new_key_after_timeout',
  'same_key_changed_args',
  'invented_fields',
  'claimed_authority',
  'repeat_non_retryable',
] as const;
export type AdversarialPolicy = (typeof ADVERSARIAL_POLICIES)[number];

export const LLM_PROVIDERS = ['openai-compatible', 'anthropic'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];
