import type { JSONSchema7 } from 'ai';
import {
  dynamicTool,
  generateText,
  isStepCount,
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  type ToolSet,
} from 'ai';
import { type ProviderName, providerInputSchema } from 'toolgate';
import { CLAIM_INSTRUCTIONS, parseClaim } from '../claim.ts';
import type { ToolSession } from '../tool-session.ts';
import type { AgentContext, AgentRun, EvalAgent } from './eval-agent.ts';
import { ModelUnavailableError, modelFailureReason } from './model-unavailable.ts';

export interface LlmAgentOptions {
  readonly model: LanguageModel;
  /** For reports: which model this was. */
  readonly label: string;
  /** Replaces the default system prompt (the claim instructions are always appended). */
  readonly systemPrompt?: string;
  /** Most model steps (tool rounds) in one scenario. */
  readonly maxSteps: number;
  readonly temperature?: number;
  /**
   * Whose view of each tool's input schema the model is given (providerInputSchema in toolgate): what
   * that provider refuses but that only narrows a value is said in the field's description, and the
   * gateway still checks every call against the full schema. Unset: the model's own provider's view
   * (Anthropic's models get `anthropic`, Google's `gemini`); null: the schemas as served.
   */
  readonly schemaView?: ProviderName | null;
}

export const DEFAULT_SYSTEM_PROMPT = `You are a support assistant. You act for the signed-in user only through the tools provided.
Read before you write, follow what each tool result's status, code and resolution say, and never claim more
than the result confirms. Do not invent identifiers, fields or approvals. Use a new idempotency_key for a new
request and the same key when retrying the same request.`;

/**
 * A real agent loop: the model sees the gateway's MCP tool list as function tools, every tool call
 * goes through the MCP client (and the scenario's triggers), questions to the user are answered by
 * the scripted replies, and the final answer's CLAIM line is what gets judged.
 */
export function llmAgent(options: LlmAgentOptions): EvalAgent {
  return {
    kind: 'llm',
    label: options.label,
    async run(context: AgentContext): Promise<AgentRun> {
      const tools = await toolsFor(context.session, options.schemaView ?? viewFor(options.model));
      const messages: ModelMessage[] = [{ role: 'user', content: context.scenario.request }];
      const system = `${options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT}\n\n${CLAIM_INSTRUCTIONS}`;
      let stepsLeft = options.maxSteps;
      let inputTokens = 0;
      let outputTokens = 0;
      let text = '';
      while (stepsLeft > 0) {
        const result = await ask(context.signal, {
          model: options.model,
          system,
          messages,
          tools,
          stopWhen: isStepCount(stepsLeft),
          abortSignal: context.signal,
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        });
        inputTokens += result.totalUsage.inputTokens ?? 0;
        outputTokens += result.totalUsage.outputTokens ?? 0;
        messages.push(...result.responseMessages);
        stepsLeft -= result.steps.length;
        text = result.text;
        if (parseClaim(text) || !context.user.canAnswer || result.finishReason === 'tool-calls') break;
        const reply = context.user.answer(text);
        if (reply === null) break;
        messages.push({ role: 'user', content: reply });
      }
      return { claim: parseClaim(text), answer: text, usage: { inputTokens, outputTokens } };
    },
  };
}

/**
 * One round with the model. A failure of the model's side (unreachable, an HTTP error, a rate
 * limit, an answer that is not one) is the endpoint's, not the agent's: it is raised as
 * ModelUnavailableError so the trial is errored. A trial that ran out of time stays the agent's.
 */
async function ask(signal: AbortSignal, request: Parameters<typeof generateText>[0]) {
  try {
    return await generateText(request);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ModelUnavailableError(modelFailureReason(error));
  }
}

/** The schema view a model's provider needs, from the provider id the AI SDK gives its models. */
export function viewFor(model: LanguageModel): ProviderName | null {
  const provider = typeof model === 'string' ? model : model.provider;
  if (provider.startsWith('anthropic')) return 'anthropic';
  if (provider.startsWith('google')) return 'gemini';
  return null;
}

/**
 * The gateway's tools as function tools, each input schema in `view`'s form (as served when null);
 * arguments pass unvalidated so the gateway judges them.
 */
async function toolsFor(session: ToolSession, view: ProviderName | null): Promise<ToolSet> {
  const tools: ToolSet = {};
  for (const tool of await session.listTools()) {
    const schema = view ? providerInputSchema(view, tool.inputSchema).schema : tool.inputSchema;
    tools[tool.name] = dynamicTool({
      description: tool.description ?? tool.title ?? tool.name,
      inputSchema: jsonSchema(schema as JSONSchema7),
      execute: async (input) => {
        const args = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
        const answer = await session.call(tool.name, args);
        return answer.envelope ?? { error: answer.protocolError };
      },
    });
  }
  return tools;
}
