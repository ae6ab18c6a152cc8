import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { LlmProvider } from './llm-providers.ts';

/** Where the model lives; flags and TOOLGATE_EVAL_* variables fill this in. */
export interface LlmEndpoint {
  readonly provider: LlmProvider;
  readonly model: string;
  /** OpenAI-compatible: e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), a vLLM server. */
  readonly baseUrl?: string;
  readonly apiKey?: string;
}

/** A language model for the endpoint: any OpenAI-compatible server, or Anthropic's API. */
export function languageModel(endpoint: LlmEndpoint): LanguageModel {
  if (endpoint.provider === 'anthropic') {
    const anthropic = createAnthropic({
      ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
      ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
    });
    return anthropic(endpoint.model);
  }
  if (!endpoint.baseUrl) throw new Error('an OpenAI-compatible endpoint needs a base URL (--base-url)');
  const provider = createOpenAICompatible({
    name: 'eval',
    baseURL: endpoint.baseUrl,
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    includeUsage: true,
  });
  return provider.chatModel(endpoint.model);
}
