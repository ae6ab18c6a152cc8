import { describe, expect, test } from 'vitest';
import { ADVERSARIAL_POLICIES } from '../../packages/eval/src/agents/adversarial-policies.ts';
import { AGENT_KINDS } from '../../packages/eval/src/agents/eval-agent.ts';
import { LLM_PROVIDERS } from '../../packages/eval/src/agents/llm-providers.ts';
import * as cli from '../../packages/toolgate/src/cli/eval-flag-choices.ts';

/**
 * `toolgate eval` offers and validates its choices without loading the harness, from the CLI's own copy
 * of the harness's lists: a value the harness gains or loses must reach the flags too.
 */
describe('the eval flag choices the CLI offers', () => {
  test('are the harness agent kinds, adversarial policies and model providers, in order', () => {
    expect(cli.AGENT_KINDS).toEqual(AGENT_KINDS);
    expect(cli.ADVERSARIAL_POLICIES).toEqual(ADVERSARIAL_POLICIES);
    expect(cli.LLM_PROVIDERS).toEqual(LLM_PROVIDERS);
  });
});
