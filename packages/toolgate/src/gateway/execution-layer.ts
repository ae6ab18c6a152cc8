import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';
import type { ConfirmationView } from '../contract/confirmation.ts';
import type { OperationHandle, ToolContext } from '../contract/define-tool.ts';
import type { ToolExceptions } from '../contract/handler-exceptions.ts';
import type { ToolOutcome } from '../contract/outcome.ts';
import type { RegisteredTool } from '../contract/tool-registry.ts';

export type Execution =
  | { kind: 'returned'; outcome: ToolOutcome<unknown> }
  | { kind: 'timed_out' }
  | { kind: 'cancelled' }
  | { kind: 'threw'; error: unknown };

/**
 * The context a handler gets. Every call's context has the same shape: an accessor defined on each
 * object with a getter of its own (a new closure per call) gave every context a hidden class of its
 * own, which made each property read at a handler's call site megamorphic and filled the old generation
 * with maps. The logger is still an own, enumerable accessor (a handler may spread its context), but
 * with one getter shared by every context, so V8 reuses one map. The call's child logger is made on
 * first use: most handlers never log.
 */
/** What the gateway gives a call's context; the exceptions are built on first use, like the logger. */
export type CallContextParts = Omit<ToolContext, 'signal' | 'deadline' | 'log' | 'exceptions'> & {
  readonly exceptions: () => ToolExceptions;
};

class CallContext implements ToolContext {
  readonly principal: Principal;
  readonly signal: AbortSignal;
  readonly deadline: number;
  readonly correlationId: string;
  readonly operation: OperationHandle | null;
  readonly traceparent: string | undefined;
  readonly confirmation: ConfirmationView | null;
  /** The gateway's own function (an own property, so a spread or detached context keeps it). */
  readonly annotate: ToolContext['annotate'];
  declare readonly log: Logger;
  declare readonly exceptions: ToolExceptions;
  readonly #logger: () => Logger;
  #log: Logger | undefined;
  readonly #exceptionsOf: () => ToolExceptions;
  #exceptions: ToolExceptions | undefined;

  static readonly #logProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: CallContext): Logger {
      this.#log ??= this.#logger();
      return this.#log;
    },
  };
  static readonly #exceptionsProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: CallContext): ToolExceptions {
      this.#exceptions ??= this.#exceptionsOf();
      return this.#exceptions;
    },
  };

  constructor(context: CallContextParts, signal: AbortSignal, deadline: number, logger: () => Logger) {
    this.principal = context.principal;
    this.signal = signal;
    this.deadline = deadline;
    this.correlationId = context.correlationId;
    this.operation = context.operation;
    this.traceparent = context.traceparent;
    this.confirmation = context.confirmation;
    this.annotate = context.annotate;
    this.#logger = logger;
    this.#exceptionsOf = context.exceptions;
    Object.defineProperty(this, 'log', CallContext.#logProperty);
    Object.defineProperty(this, 'exceptions', CallContext.#exceptionsProperty);
  }
}

/**
 * The execution layer: runs the domain handler under the tool's timeout. The handler's signal aborts
 * when the time is up or the client cancels; the call then settles without waiting for the handler.
 */
export async function executeWithTimeout(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  context: CallContextParts,
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
      const ctx = new CallContext(context, controller.signal, deadlineAt, logger);
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
