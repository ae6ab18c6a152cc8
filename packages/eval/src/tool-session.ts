import type { Client, Tool } from '@modelcontextprotocol/client';
import type { OutcomeEnvelope } from 'toolgate';
import { anyEnvelopeSchema } from 'toolgate/server';
import type { EvalWorld } from './eval-world.ts';
import type { Scenario } from './scenario-schema.ts';
import type { ScriptedPerson } from './scripted-person.ts';
import type { TemplateScope } from './template.ts';
import type { CallRecord, Transcript } from './transcript.ts';
import { applyWorldAction } from './world-actions.ts';

/** What an agent gets back from one call: the envelope (or protocol error) and the raw text. */
export interface CallAnswer {
  readonly envelope: OutcomeEnvelope | null;
  readonly protocolError: string | null;
  /** The tool result as the model would read it. */
  readonly text: string;
}

/**
 * The agent's only way to the gateway: calls go through a real MCP client, every call is recorded
 * in the transcript, and the scenario's triggers fire at their moments (before or after the Nth call
 * to a tool), so the world moves while the conversation goes on.
 */
export class ToolSession {
  readonly #counts = new Map<string, number>();
  #tools: Tool[] | null = null;

  constructor(
    private readonly client: Client,
    private readonly world: EvalWorld,
    private readonly scenario: Scenario,
    private readonly scope: TemplateScope,
    readonly transcript: Transcript,
    private readonly person?: ScriptedPerson,
  ) {}

  async listTools(): Promise<Tool[]> {
    this.#tools ??= (await this.client.listTools()).tools;
    return this.#tools;
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<CallAnswer> {
    const nth = (this.#counts.get(tool) ?? 0) + 1;
    this.#counts.set(tool, nth);
    await this.#fire('before_call', tool, nth);
    const started = performance.now();
    let answer: CallAnswer;
    if (this.person) this.person.during = tool;
    try {
      const result = await this.client.callTool({
        name: tool,
        arguments: args,
        ...(meta ? { _meta: meta } : {}),
      });
      const text = JSON.stringify(result.structuredContent ?? result.content);
      const parsed = anyEnvelopeSchema.safeParse(result.structuredContent);
      answer = parsed.success
        ? { envelope: parsed.data, protocolError: null, text }
        : { envelope: null, protocolError: 'the result is not an outcome envelope', text };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      answer = { envelope: null, protocolError: message, text: JSON.stringify({ error: message }) };
    } finally {
      if (this.person) this.person.during = null;
    }
    const record: CallRecord = {
      kind: 'call',
      index: this.transcript.calls().length + 1,
      tool,
      args,
      ...(meta ? { meta } : {}),
      envelope: answer.envelope,
      contractVersion: answer.envelope?.contract_version ?? null,
      protocolError: answer.protocolError,
      bytes: Buffer.byteLength(answer.text),
      at: started,
      ms: performance.now() - started,
    };
    this.transcript.add(record);
    await this.#fire('after_call', tool, nth);
    return answer;
  }

  async #fire(when: 'before_call' | 'after_call', tool: string, nth: number): Promise<void> {
    for (const trigger of this.scenario.triggers) {
      const moment = trigger.when;
      const target =
        when === 'before_call'
          ? 'before_call' in moment && moment.before_call
          : 'after_call' in moment && moment.after_call;
      if (target !== tool || moment.nth !== nth) continue;
      for (const action of trigger.do) {
        const applied = await applyWorldAction(this.world, action, this.scope);
        this.transcript.add({ kind: 'world', moment: `${when} ${tool} #${nth}`, action: applied });
      }
    }
  }
}
