import type { DemoPrincipal } from '@toolgate/simulation';
import { defineTool, outcome } from 'toolgate';
import { z } from 'zod';

/** What the probe handlers did, so tests can assert that nothing ran (or that it was aborted). */
export interface ProbeLedger {
  readonly executions: Record<string, number>;
  slowSignalAborted: boolean | null;
  /** When probe_wait saw its signal abort (ms after it started), or null. */
  waitAbortedAfterMs: number | null;
}

export function newProbeLedger(): ProbeLedger {
  return { executions: {}, slowSignalAborted: null, waitAbortedAfterMs: null };
}

const ran = (ledger: ProbeLedger, tool: string) => {
  ledger.executions[tool] = (ledger.executions[tool] ?? 0) + 1;
};

const echoInput = z.strictObject({
  text: z.string().min(1).max(100).describe('Text to echo back.'),
  repeat: z.number().int().min(1).max(3).default(1).describe('How many times.'),
});
const echoOutput = z.strictObject({ text: z.string() });
const common = {
  kind: 'read' as const,
  version: '1.0.0',
  output: echoOutput,
  errors: [],
  examples: [],
};

/** Test-only read tools exercising each layer of the pipeline. */
export function probeTools(ledger: ProbeLedger) {
  return [
    defineTool({
      ...common,
      name: 'probe_echo',
      title: 'Echo',
      description: 'Echoes the given text back; used by the tests to check the whole pipeline.',
      input: echoInput,
      scopes: ['probe:read'],
      timeoutMs: 2000,
      examples: [{ title: 'once', input: { text: 'hi' } }],
      handler: async (input) => {
        ran(ledger, 'probe_echo');
        return outcome.completed({ text: input.text.repeat(input.repeat) });
      },
    }),
    defineTool({
      ...common,
      name: 'probe_admin_echo',
      title: 'Admin echo',
      description: 'Echoes text for administrators only; the tests call it without the scope.',
      input: echoInput,
      scopes: ['probe:admin'],
      timeoutMs: 2000,
      handler: async (input) => {
        ran(ledger, 'probe_admin_echo');
        return outcome.completed({ text: input.text });
      },
    }),
    defineTool({
      ...common,
      name: 'probe_wrong_shape',
      title: 'Wrong shape',
      description: 'Returns a result that breaks its own output schema, to test output validation.',
      input: echoInput,
      scopes: ['probe:read'],
      timeoutMs: 2000,
      handler: async () => {
        ran(ledger, 'probe_wrong_shape');
        return outcome.completed({ text: 42 } as unknown as { text: string });
      },
    }),
    defineTool({
      ...common,
      name: 'probe_throw',
      title: 'Throw',
      description: 'Throws an unexpected error whose message holds a file path and SQL text.',
      input: echoInput,
      scopes: ['probe:read'],
      timeoutMs: 2000,
      handler: async () => {
        ran(ledger, 'probe_throw');
        throw new Error('SELECT * FROM secrets failed at /srv/toolgate/private/db.sqlite');
      },
    }),
    defineTool({
      ...common,
      name: 'probe_slow',
      title: 'Slow',
      description: 'Waits far longer than its timeout and reports whether its signal was aborted.',
      input: echoInput,
      scopes: ['probe:read'],
      timeoutMs: 150,
      handler: async (_input, ctx) => {
        ran(ledger, 'probe_slow');
        ledger.slowSignalAborted = false;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          ctx.signal.addEventListener('abort', () => {
            ledger.slowSignalAborted = true;
            clearTimeout(timer);
            resolve();
          });
        });
        return outcome.completed({ text: 'late' });
      },
    }),
    defineTool({
      ...common,
      name: 'probe_wait',
      title: 'Wait',
      description: 'Waits up to three seconds, well within its timeout, unless its signal is aborted first.',
      input: echoInput,
      scopes: ['probe:read'],
      timeoutMs: 10_000,
      handler: async (_input, ctx) => {
        ran(ledger, 'probe_wait');
        const started = Date.now();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 3000);
          ctx.signal.addEventListener('abort', () => {
            ledger.waitAbortedAfterMs = Date.now() - started;
            clearTimeout(timer);
            resolve();
          });
        });
        return outcome.completed({ text: 'waited' });
      },
    }),
  ];
}

export const probeReader: DemoPrincipal = {
  name: 'probe_reader',
  subject: 'user_probe_reader',
  tenant: 'tenant_probe',
  actor: 'customer',
  scopes: ['probe:read'],
  description: 'May call the probe read tools, not the admin one.',
};
