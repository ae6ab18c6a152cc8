import { defineConfig, defineTool, outcome } from 'toolgate';
import { z } from 'zod';

/** A config of tools only, no module and no simulated world: what a team serving its own service writes. */
const greet = defineTool({
  name: 'greeting_get',
  title: 'Read the greeting',
  description: 'Returns the greeting the service shows a caller by name.',
  kind: 'read',
  version: '1.0.0',
  input: z.strictObject({ name: z.string().min(1).max(40).describe('Who to greet.') }),
  output: z.strictObject({ text: z.string().describe('The greeting.') }),
  errors: [],
  scopes: ['greeting:read'],
  timeoutMs: 2000,
  examples: [],
  async handler(input) {
    return outcome.completed({ text: `Hello, ${input.name}!` });
  },
});

export default defineConfig({ tools: [greet] });
