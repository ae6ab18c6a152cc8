import { describe, expect, test } from 'vitest';
import * as cli from '../../src/cli/eval-flag-choices.ts';
import { ADVERSARIAL_POLICIES } from '../../src/eval/agents/adversarial-policies.ts';
import { AGENT_KINDS } from '../../src/eval/agents/eval-agent.ts';
import { LLM_PROVIDERS } from '../../src/eval/agents/llm-providers.ts';

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
