/** The model API flavours the llm agent speaks (a light module: the CLI lists them without loading SDKs). */
export const LLM_PROVIDERS = ['openai-compatible', 'anthropic'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/**
 * A model spec, `[provider:]model`: a known provider name before the first colon picks the provider,
 * anything else is the model id of `fallback` (so Ollama's `llama3.1:8b` stays one id).
 */
export function parseModelSpec(
  spec: string,
  fallback: LlmProvider,
): { readonly provider: LlmProvider; readonly model: string } {
  const colon = spec.indexOf(':');
  const named = LLM_PROVIDERS.find((p) => p === spec.slice(0, colon));
  if (colon < 0 || !named) return { provider: fallback, model: spec };
  return { provider: named, model: spec.slice(colon + 1) };
}
