import { defineTool, idempotencyKeySchema, outcome, type ToolgateModule } from 'toolgate';
import { z } from 'zod';

export const BENCH_WRITE_TOOL = 'bench_record_note';
export const BENCH_SCOPE = 'bench:write';

/**
 * The benchmark's write tool: everything a durable write pays for (schema, scopes, reservation,
 * settlement, envelope, audit) around a handler that does no work of its own, so the numbers
 * measure the gateway and the operation store rather than a domain.
 */
const recordNote = defineTool({
  name: BENCH_WRITE_TOOL,
  title: 'Record a note',
  description: 'Records a note durably; the benchmark write tool (one reserved operation per call).',
  kind: 'write',
  mutation: 'create',
  version: '1.0.0',
  input: z.strictObject({ text: z.string().max(200), idempotency_key: idempotencyKeySchema }),
  output: z.strictObject({ accepted: z.boolean() }),
  errors: [],
  scopes: [BENCH_SCOPE],
  timeoutMs: 5_000,
  examples: [],
  handler: async () => outcome.completed({ accepted: true }),
  reconcile: async () => ({ settled: true, outcome: outcome.completed({ accepted: true }) }),
});

export const benchDomain: ToolgateModule = {
  name: 'bench',
  create: () => ({
    tools: [recordNote],
  }),
};
