import type { Logger } from 'pino';
import type { ToolContext } from '../contract/define-tool.ts';
import type { ToolOutcome } from '../contract/outcome.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

export type Execution =
  | { kind: 'returned'; outcome: ToolOutcome<unknown> }
  | { kind: 'timed_out' }
  | { kind: 'cancelled' }
  | { kind: 'threw'; error: unknown };

/**
 * Layers 6-7. Runs the domain handler with the tool's timeout. The handler's signal aborts when
 * the time is up or the client cancels; the call then settles without waiting for the handler.
 */
export async function executeWithTimeout(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  context: Omit<ToolContext, 'signal' | 'deadline' | 'log'>,
  clientSignal: AbortSignal | undefined,
  logger: () => Logger,
): Promise<Execution> {
  const controller = new AbortController();
  const deadlineAt = Date.now() + tool.definition.timeoutMs;
  let timer: NodeJS.Timeout | undefined;
  let onClientAbort: (() => void) | undefined;
  const deadline = new Promise<Execution>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`tool ${tool.definition.name} timed out`));
      resolve({ kind: 'timed_out' });
    }, tool.definition.timeoutMs);
    if (clientSignal) {
      onClientAbort = () => {
        controller.abort(new Error('cancelled by the client'));
        resolve({ kind: 'cancelled' });
      };
      if (clientSignal.aborted) onClientAbort();
      else clientSignal.addEventListener('abort', onClientAbort, { once: true });
    }
  });
  const run = (async (): Promise<Execution> => {
    try {
      const ctx = { ...context, signal: controller.signal, deadline: deadlineAt } as ToolContext;
      // Most handlers never log: the call's child logger is made on first use, not on every call.
      let log: Logger | undefined;
      Object.defineProperty(ctx, 'log', { enumerable: true, get: () => (log ??= logger()) });
      const outcome = await tool.definition.handler(args, ctx);
      return { kind: 'returned', outcome };
    } catch (error) {
      return { kind: 'threw', error };
    }
  })();
  try {
    return await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
    if (onClientAbort) clientSignal?.removeEventListener('abort', onClientAbort);
  }
}
