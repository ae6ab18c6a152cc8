/** The model API flavours the llm agent speaks (a light module: the CLI lists them without loading SDKs). */
export const LLM_PROVIDERS = ['openai-compatible', 'anthropic'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];
