import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BackendCallContext,
  type CallAnnotations,
  defineConfig,
  defineTool,
  idempotencyKeySchema,
  outcome,
  REVISION_2026,
  type ToolContext,
  type ToolDefinition,
  type ToolgateConfig,
  type ToolOutcome,
} from 'toolgate';
import type { ConfirmingClient, confirmingClient, ScriptedAnswer, TestGateway } from 'toolgate/testing';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { z } from 'zod';

const ROOT = join(import.meta.dirname, '../..');
/**
 * The public entries: what a team imports, what a program embedding the gateway imports, and the kit.
 * The sibling packages build on these same entries; there is no other door.
 */
const ENTRIES = {
  toolgate: 'packages/toolgate/src/index.ts',
  'toolgate/testing': 'packages/toolgate/src/testing.ts',
  'toolgate/server': 'packages/toolgate/src/server.ts',
  '@toolgate/simulation': 'packages/simulation/src/index.ts',
} as const;
const BUILT = {
  toolgate: 'packages/toolgate/dist/index.js',
  'toolgate/testing': 'packages/toolgate/dist/testing.js',
  'toolgate/server': 'packages/toolgate/dist/server.js',
  '@toolgate/simulation': 'packages/simulation/dist/index.js',
} as const;

/** Names an entry exports, read from its source (`x as y` exports `y`): values and types apart. */
function exportedNames(file: string): { values: string[]; types: string[] } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const values: string[] = [];
  const types: string[] = [];
  for (const [, typeOnly, list] of text.matchAll(/export (type )?\{([^}]*)\} from/g)) {
    const names = list!
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .split(/\s+as\s+/)
            .at(-1)!,
      )
      .filter(Boolean);
    (typeOnly ? types : values).push(...names);
  }
  return { values: values.sort(), types: types.sort() };
}

describe('the public package surface', () => {
  test("every exported name of the public entries is documented in docs/api.md, in its entry's section", () => {
    const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
    /** The section `## \`entry\``, up to the next entry's. */
    const sectionOf = (entry: string) => {
      const start = doc.indexOf(`\n## \`${entry}\`\n`);
      if (start < 0) return '';
      const end = doc.indexOf('\n## ', start + 1);
      return doc.slice(start, end < 0 ? undefined : end);
    };
    const undocumented = Object.entries(ENTRIES).flatMap(([entry, file]) => {
      const { values, types } = exportedNames(file);
      const section = sectionOf(entry);
      return [...values, ...types]
        .filter((name) => !new RegExp(`\`${name}[\`(<,]`).test(section))
        .map((name) => `${entry}: ${name}`);
    });
    expect(undocumented).toEqual([]);
  });

  test('the built entries export exactly the values their sources declare, nothing more', async () => {
    for (const entry of Object.keys(ENTRIES) as (keyof typeof ENTRIES)[]) {
      const built = (await import(join(ROOT, BUILT[entry]))) as Record<string, unknown>;
      expect(Object.keys(built).sort(), entry).toEqual(exportedNames(ENTRIES[entry]).values);
    }
  });

  test('types: a tool is typed from its zod schemas, and its context fits the backend kit', () => {
    const tool = defineTool({
      name: 'things_touch',
      title: 'Touch a thing',
      description: 'Touches one thing of the caller. Do not use it to read things; use things_get instead.',
      kind: 'write',
      mutation: 'update',
      version: '1.0.0',
      input: z.strictObject({ thing_id: z.string().max(20), idempotency_key: idempotencyKeySchema }),
      output: z.strictObject({ touched: z.boolean() }),
      errors: [],
      scopes: ['things:write'],
      timeoutMs: 1_000,
      examples: [],
      async handler(input) {
        expectTypeOf(input.thing_id).toEqualTypeOf<string>();
        return outcome.completed({ touched: true });
      },
      reconcile: async () => ({ settled: false, note: 'no status query' }),
    });
    expectTypeOf(tool).toExtend<ToolDefinition>();
    expectTypeOf(tool.handler).returns.toEqualTypeOf<Promise<ToolOutcome<{ touched: boolean }>>>();
    expectTypeOf<ToolContext>().toExtend<BackendCallContext>();
    // What a handler annotates its call with is a type the entry names.
    expectTypeOf<Parameters<ToolContext['annotate']>[0]>().toEqualTypeOf<CallAnnotations>();
    expect(REVISION_2026).toBe('2026-07-28');
    expectTypeOf(defineConfig({ tools: [tool], port: 0 })).toEqualTypeOf<ToolgateConfig>();
    // @ts-expect-error a config has no such setting
    defineConfig({ tools: [tool], prot: 1 });
    expectTypeOf<TestGateway['callTool']>().returns.resolves.toHaveProperty('status');
    expectTypeOf<typeof confirmingClient>().returns.resolves.toEqualTypeOf<ConfirmingClient>();
    expectTypeOf<ScriptedAnswer['action']>().toEqualTypeOf<'accept' | 'decline' | 'cancel'>();
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });
});
