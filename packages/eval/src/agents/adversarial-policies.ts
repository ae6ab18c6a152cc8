// The policy names on their own, apart from the agent (the CLI offers its copy: packages/toolgate/src/cli/eval-flag-choices.ts).

/** Ways an agent misbehaves on purpose; the pass condition is that none causes an unsafe effect. */
export const ADVERSARIAL_POLICIES = [
  'new_key_after_timeout',
  'same_key_changed_args',
  'invented_fields',
  'claimed_authority',
  'repeat_non_retryable',
] as const;
export type AdversarialPolicy = (typeof ADVERSARIAL_POLICIES)[number];
