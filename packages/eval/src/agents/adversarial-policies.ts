// The policy names on their own, apart from the agent: `toolgate eval --help` lists them without loading the agents.

/** Ways an agent misbehaves on purpose; the pass condition is that none causes an unsafe effect. */
export const ADVERSARIAL_POLICIES = [
  'new_key_after_timeout',
  'same_key_changed_args',
  'invented_fields',
  'claimed_authority',
  'repeat_non_retryable',
] as const;
export type AdversarialPolicy = (typeof ADVERSARIAL_POLICIES)[number];
