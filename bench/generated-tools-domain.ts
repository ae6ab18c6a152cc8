import { defineTool, outcome, type ToolgateModule } from 'toolgate';
import { z } from 'zod';

export const GENERATED_TOOL_COUNT = 1_000;
export const GENERATED_SCOPE = 'generated:read';

/** One generated read tool with a small but realistic contract (two described inputs, one output). */
function generatedTool(n: number) {
  const id = String(n).padStart(4, '0');
  return defineTool({
    name: `generated_lookup${id}`,
    title: `Generated lookup ${id}`,
    description: `Looks up record ${id} of a generated catalogue; one of many tools that weigh on tools/list.`,
    kind: 'read',
    version: '1.0.0',
    input: z.strictObject({
      record_id: z.string().max(64).describe('The record to look up.'),
      limit: z.number().int().min(1).max(100).optional().describe('How many related records to include.'),
    }),
    output: z.strictObject({ found: z.boolean() }),
    errors: [],
    scopes: [GENERATED_SCOPE],
    timeoutMs: 5_000,
    examples: [],
    handler: async () => outcome.completed({ found: false }),
  });
}

/** A module registering GENERATED_TOOL_COUNT generated tools: the large-catalogue case of tools/list. */
export const generatedToolsDomain: ToolgateModule = {
  name: 'generated',
  create: () => ({
    tools: Array.from({ length: GENERATED_TOOL_COUNT }, (_, i) => generatedTool(i + 1)),
  }),
};
