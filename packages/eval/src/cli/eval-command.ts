import type { ExtensionCommand } from 'toolgate';
import { ADVERSARIAL_POLICIES, type AdversarialPolicy } from '../agents/adversarial-policies.ts';
import { AGENT_KINDS, type AgentKind } from '../agents/eval-agent.ts';
import { LLM_PROVIDERS, type LlmProvider } from '../agents/llm-providers.ts';

export interface EvalFlags {
  agent: AgentKind;
  policy?: AdversarialPolicy[];
  provider: LlmProvider;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  systemPrompt?: string;
  maxSteps: string;
  temperature?: string;
  trials: string;
  split: 'dev' | 'holdout' | 'all';
  filter?: string;
  scenarios: string;
  out?: string;
  databaseUrl?: string;
  config?: string;
  compare?: string;
  judgeModel?: string;
  judgeBaseUrl?: string;
  progress: boolean;
}

/**
 * `toolgate eval`: runs the scenarios against an in-process gateway and writes the reports. This file
 * and the lists it imports are all `--help` loads; the run loads the harness and its model SDKs.
 */
export const evalCommand: ExtensionCommand = {
  path: ['eval'],
  description: 'Run the evaluation scenarios against a fresh gateway and report how the agent did.',
  options: [
    {
      flags: '--agent <kind>',
      description: 'who works the scenarios',
      choices: AGENT_KINDS,
      default: 'reference',
    },
    {
      flags: '--policy <names...>',
      description: 'adversarial policies (default: all)',
      choices: ADVERSARIAL_POLICIES,
    },
    {
      flags: '--provider <name>',
      description: 'llm API flavour',
      choices: LLM_PROVIDERS,
      env: 'TOOLGATE_EVAL_PROVIDER',
      default: 'openai-compatible',
    },
    { flags: '--model <id>', description: 'llm model id', env: 'TOOLGATE_EVAL_MODEL' },
    {
      flags: '--base-url <url>',
      description: 'OpenAI-compatible base URL (OpenAI, Ollama, vLLM)',
      env: 'TOOLGATE_EVAL_BASE_URL',
    },
    {
      flags: '--api-key <key>',
      description:
        'llm API key; prefer TOOLGATE_EVAL_API_KEY: a flag is visible to other users in the process list',
      env: 'TOOLGATE_EVAL_API_KEY',
    },
    { flags: '--system-prompt <file>', description: 'replace the default system prompt with this file' },
    { flags: '--max-steps <n>', description: 'most model steps per scenario', default: '12' },
    { flags: '--temperature <t>', description: 'sampling temperature' },
    { flags: '--trials <k>', description: 'trials per scenario (pass^k needs k > 1)', default: '1' },
    {
      flags: '--split <split>',
      description: 'which scenarios',
      choices: ['dev', 'holdout', 'all'],
      default: 'all',
    },
    { flags: '--filter <text>', description: 'only scenarios whose id, family or domain contains this' },
    {
      flags: '--scenarios <dir>',
      description: 'scenario root with dev/ and holdout/',
      default: 'eval/scenarios',
    },
    { flags: '--out <dir>', description: 'where results.json, summary.md and report.html go' },
    { flags: '--database-url <url>', description: 'run the gateway on PostgreSQL instead of a temp SQLite' },
    {
      flags: '--config <file>',
      description: 'evaluate the modules of this config (TOOLGATE_CONFIG; default ./toolgate.config.*)',
    },
    {
      flags: '--compare <results>',
      description: 'show what changed since an earlier run (its results.json or its directory)',
    },
    {
      flags: '--judge-model <spec>',
      description:
        'advisory second opinion on each final message: [provider:]model (provider defaults to --provider); reported apart, never changes a verdict',
      env: 'TOOLGATE_EVAL_JUDGE_MODEL',
    },
    {
      flags: '--judge-base-url <url>',
      description:
        "the judge model's OpenAI-compatible base URL (default: --base-url when the provider is the same); key in TOOLGATE_EVAL_JUDGE_API_KEY",
      env: 'TOOLGATE_EVAL_JUDGE_BASE_URL',
    },
    { flags: '--no-progress', description: 'no progress output' },
  ],
  async run(options, context) {
    if (context.optionSource('apiKey') === 'cli') {
      process.stderr.write(
        'toolgate eval: --api-key is visible to other users in the process list; set TOOLGATE_EVAL_API_KEY instead.\n',
      );
    }
    const { runEvalCommand } = await import('./eval-run.ts');
    return runEvalCommand(options as unknown as EvalFlags, context);
  },
};
