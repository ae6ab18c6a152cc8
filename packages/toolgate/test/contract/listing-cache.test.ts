import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/contract/define-tool.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';

function readTool(name: string, scope: string) {
  return defineTool({
    name,
    title: `Read ${name}`,
    description: `Returns one ${name} the caller may see. Do not use it to search; there is no search tool.`,
    kind: 'read',
    version: '1.0.0',
    input: z.strictObject({ id: z.string().max(20).describe('Id.') }),
    output: z.strictObject({ id: z.string() }),
    errors: [],
    scopes: [scope],
    timeoutMs: 1000,
    examples: [{ title: 'one', input: { id: 'x1' } }],
    handler: async (input: { id: string }) => outcome.completed({ id: input.id }),
  });
}

function registry(): ToolRegistry {
  return new ToolRegistry({ retentionSeconds: 3600 }).register(
    readTool('things_get', 'things:read'),
    readTool('parts_get', 'parts:read'),
  );
}

/** The page bytes a transport would keep for `listing`: the names of its tools. */
const bytesOf = (listing: readonly Record<string, unknown>[]) =>
  Buffer.from(JSON.stringify(listing.map((tool) => tool.name)));

describe('the listing cache of the tool registry', () => {
  it('keeps one view per class of principals and each serialized form next to it', () => {
    const reg = registry();
    const view = reg.listingFor(new Set(['things:read']));
    expect(reg.listingFor(new Set(['things:read']))).toBe(view);
    expect(view.map((tool) => tool.name)).toEqual(['things_get']);
    expect(reg.serializedListing(view, 'form\n100\n')).toBeUndefined();
    const bytes = bytesOf(view);
    reg.keepSerializedListing(view, 'form\n100\n', bytes);
    expect(reg.serializedListing(reg.listingFor(new Set(['things:read'])), 'form\n100\n')).toBe(bytes);
    expect(reg.serializedListing(view, 'other-form\n100\n')).toBeUndefined();
    expect(reg.serializedListing(reg.listingFor(new Set(['parts:read'])), 'form\n100\n')).toBeUndefined();
  });

  it('keeps apart every tool, each scope set and each policy class', () => {
    const reg = registry();
    const all = reg.listing();
    const none = reg.listingFor(new Set());
    const policy = reg.listingFor(new Set(['things:read', 'parts:read']), {
      key: 'things:read parts:read',
      permits: (tool) => tool === 'parts_get',
    });
    const both = reg.listingFor(new Set(['things:read', 'parts:read']));
    expect(all.map((tool) => tool.name)).toEqual(['parts_get', 'things_get']);
    expect(none).toEqual([]);
    expect(policy.map((tool) => tool.name)).toEqual(['parts_get']);
    expect(both.map((tool) => tool.name)).toEqual(['parts_get', 'things_get']);
    expect(both).not.toBe(all);
    expect(reg.listing()).toBe(all);
    reg.keepSerializedListing(all, 'form\n100\n', bytesOf(all));
    expect(reg.serializedListing(both, 'form\n100\n')).toBeUndefined();
  });

  it('keeps nothing for a listing it did not hand out', () => {
    const reg = registry();
    const stranger = [...reg.listing()];
    reg.keepSerializedListing(stranger, 'form\n100\n', bytesOf(stranger));
    expect(reg.serializedListing(stranger, 'form\n100\n')).toBeUndefined();
  });

  it('drops views and their bytes when a tool is registered, so no stale page is served', () => {
    const reg = registry();
    const before = reg.listing();
    reg.keepSerializedListing(before, 'form\n100\n', bytesOf(before));
    reg.register(readTool('widgets_get', 'widgets:read'));
    const after = reg.listing();
    expect(after).not.toBe(before);
    expect(after.map((tool) => tool.name)).toEqual(['parts_get', 'things_get', 'widgets_get']);
    expect(reg.serializedListing(after, 'form\n100\n')).toBeUndefined();
  });

  it('is bounded: past 256 classes the oldest view goes, and its bytes with it', () => {
    const reg = registry();
    const oldest = reg.listingFor(new Set(['things:read']));
    reg.keepSerializedListing(oldest, 'form\n100\n', bytesOf(oldest));
    for (let i = 0; i < 255; i += 1) reg.listingFor(new Set([`odd:${i}`]));
    // 256 classes: all still held.
    expect(reg.listingFor(new Set(['things:read']))).toBe(oldest);
    reg.listingFor(new Set(['odd:255']));
    const rebuilt = reg.listingFor(new Set(['things:read']));
    expect(rebuilt).not.toBe(oldest);
    expect(reg.serializedListing(rebuilt, 'form\n100\n')).toBeUndefined();
    const newest = reg.listingFor(new Set(['odd:255']));
    expect(reg.listingFor(new Set(['odd:255']))).toBe(newest);
  });
});
