import { setTimeout as sleep } from 'node:timers/promises';
import type { ReferenceStep } from '../scenario-schema.ts';
import { renderTemplates } from '../template.ts';
import type { CallAnswer } from '../tool-session.ts';
import { pathMismatches } from '../value-matcher.ts';
import type { AgentContext } from './eval-agent.ts';

/** Sends one call; an adversarial policy wraps this to misbehave around the honest call. */
export type CallSender = (
  tool: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
) => Promise<CallAnswer>;

/**
 * Walks the scenario's reference trajectory: each tool step's arguments are rendered from the
 * fixtures and earlier results (`steps.<id>` holds that step's envelope, or `{reply}` for a question),
 * `until` steps poll with the same arguments, and `ask` steps put the question to the scripted user.
 */
export async function walkTrajectory(
  context: AgentContext,
  steps: readonly ReferenceStep[],
  send: CallSender,
): Promise<void> {
  const results: Record<string, unknown> = {};
  const scope = {
    ...context.scope,
    values: { ...context.scope.values, steps: results },
  };
  for (const step of steps) {
    if (context.signal.aborted) return;
    if ('ask' in step) {
      const reply = context.user.answer(String(renderTemplates(step.ask, scope)));
      if (step.id) results[step.id] = { reply };
      continue;
    }
    const args = renderTemplates(step.args, scope) as Record<string, unknown>;
    const meta = step.meta ? (renderTemplates(step.meta, scope) as Record<string, unknown>) : undefined;
    let answer = await sendPaced(send, step.tool, args, meta);
    if (step.until) {
      for (let attempt = 1; attempt < step.until.attempts; attempt += 1) {
        const want = renderTemplates(step.until.fields, scope) as Record<string, unknown>;
        if (answer.envelope && pathMismatches(want, answer.envelope).length === 0) break;
        await sleep(step.until.interval_ms);
        answer = await sendPaced(send, step.tool, args, meta);
      }
    }
    if (step.id) results[step.id] = answer.envelope ?? { protocol_error: answer.protocolError };
  }
}

/** How many times a careful agent sends a call again after the caller's rate limit refused it. */
const RATE_LIMIT_RETRIES = 3;

/**
 * Sends a call; when the gateway refuses it RATE_LIMITED, waits as long as the answer advises and
 * sends the very same call again (same arguments, same idempotency key).
 */
async function sendPaced(
  send: CallSender,
  tool: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
): Promise<CallAnswer> {
  let answer = await send(tool, args, meta);
  for (let retry = 0; retry < RATE_LIMIT_RETRIES && answer.envelope?.code === 'RATE_LIMITED'; retry += 1) {
    const advised = Number(answer.envelope.warnings?.find((w) => w.code === 'RETRY_AFTER_MS')?.message);
    await sleep(Number.isFinite(advised) && advised > 0 ? advised : 1000);
    answer = await send(tool, args, meta);
  }
  return answer;
}
