import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../../src/auth/principal.ts';
import { defineTool as defineTyped } from '../../src/contract/define-tool.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { rolloutAdmits, rolloutBucket } from '../../src/contract/rollout.ts';
import { ToolContractError } from '../../src/contract/tool-contract-error.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import {
  CONTRACT_VERSION_META_KEY,
  pinAllows,
  servedVersion,
  servedVersionsFor,
} from '../../src/contract/tool-versions.ts';

/** Some specs below are meant to be refused, so their types are erased. */
const defineTool = (spec: Record<string, unknown>) => defineTyped(spec as never);

const notesGet = {
  name: 'notes_get',
  title: 'Read a note',
  description: 'Returns one note the caller may see. Do not use it to search; there is no search tool.',
  kind: 'read' as const,
  version: '1.2.0',
  input: z.strictObject({ note_id: z.string().max(20).describe('Note id.') }),
  output: z.strictObject({ note_id: z.string() }),
  errors: [],
  scopes: ['notes:read'],
  timeoutMs: 1000,
  examples: [{ title: 'one', input: { note_id: 'n1' } }],
  handler: async (input: { note_id: string }) => outcome.completed({ note_id: input.note_id }),
};

const registry = () => new ToolRegistry({ retentionSeconds: 3600 });

function principal(subject: string, groups: string[] = []): Principal {
  return { subject, tenant: 't1', actor: 'customer', scopes: new Set(['notes:read']), groups };
}

/** The problems a registration is refused with, by rule. */
function refusal(register: () => unknown): { rule: string; message: string }[] {
  try {
    register();
  } catch (error) {
    if (error instanceof ToolContractError)
      return error.problems.map(({ rule, message }) => ({ rule, message }));
    throw error;
  }
  return [];
}

describe('two versions of one tool', () => {
  it('serves two majors of one name when exactly one has no rollout, in either order', () => {
    const v1 = defineTool(notesGet);
    const v2 = defineTool({ ...notesGet, version: '2.0.0', rollout: { groups: ['beta'] } });
    for (const order of [
      [v1, v2],
      [v2, v1],
    ]) {
      const reg = registry().register(...order);
      expect(reg.versionsOf('notes_get').map((t) => t.definition.version)).toEqual(['1.2.0', '2.0.0']);
      expect(reg.get('notes_get')?.definition.version).toBe('1.2.0');
      expect(reg.get('notes_get', '2')?.definition.version).toBe('2.0.0');
      expect(reg.get('notes_get', '2.0.0')?.definition.version).toBe('2.0.0');
      expect(reg.get('notes_get', '3')).toBeUndefined();
      expect(reg.versionedNames()).toEqual(['notes_get']);
    }
  });

  it('refuses the same major twice', () => {
    const reg = registry().register(defineTool(notesGet));
    const problems = refusal(() =>
      reg.register(defineTool({ ...notesGet, version: '1.3.0', rollout: { percent: 10 } })),
    );
    expect(problems).toEqual([
      { rule: 'unique-name', message: 'tool notes_get is registered twice (both major 1)' },
    ]);
  });

  it('refuses two versions without a rollout, and versions that all have one', () => {
    const both = refusal(() =>
      registry().register(defineTool(notesGet), defineTool({ ...notesGet, version: '2.0.0' })),
    );
    expect(both).toEqual([
      { rule: 'rollout', message: expect.stringContaining('1.2.0 and 2.0.0 both lack') },
    ]);
    const none = refusal(() =>
      registry().register(defineTool({ ...notesGet, version: '2.0.0', rollout: { percent: 5 } })),
    );
    expect(none).toEqual([{ rule: 'rollout', message: expect.stringContaining('every served version') }]);
  });

  it.each([
    [{}, 'neither groups nor percent'],
    [{ groups: [] }, 'at least one non-empty group'],
    [{ percent: 101 }, 'whole number from 0 to 100'],
    [{ percent: 2.5 }, 'whole number from 0 to 100'],
  ])('refuses the rollout %j at definition', (rollout, message) => {
    const problems = refusal(() => defineTool({ ...notesGet, version: '2.0.0', rollout }));
    expect(problems).toEqual([{ rule: 'rollout', message: expect.stringContaining(message) }]);
  });

  it('serves a principal the newest version its rollout admits, else the one without a rollout', () => {
    const reg = registry().register(
      defineTool(notesGet),
      defineTool({ ...notesGet, version: '2.0.0', rollout: { groups: ['beta'] } }),
    );
    expect(servedVersion(reg, 'notes_get', principal('alice', ['beta']))?.definition.version).toBe('2.0.0');
    expect(servedVersion(reg, 'notes_get', principal('bob'))?.definition.version).toBe('1.2.0');
    expect(servedVersion(reg, 'notes_get', null)?.definition.version).toBe('1.2.0');
    const scopes = new Set(['notes:read']);
    expect(reg.listing().map((t) => t._meta)).toEqual([
      { 'io.toolgate/contract': expect.objectContaining({ version: '1.2.0' }) },
    ]);
    expect(reg.listingFor(scopes).length).toBe(1);
  });

  it('keeps one cached listing per cohort of served versions', () => {
    const reg = registry().register(
      defineTool(notesGet),
      defineTool({ ...notesGet, version: '2.0.0', rollout: { groups: ['beta'] } }),
    );
    const scopes = new Set(['notes:read']);
    const versionsIn = (listing: Record<string, unknown>[]) =>
      listing.map((t) => (t._meta as Record<string, { version: string }>)['io.toolgate/contract']!.version);
    const beta = reg.listingFor(scopes, undefined, servedVersionsFor(reg, principal('ann', ['beta'])));
    const rest = reg.listingFor(scopes, undefined, servedVersionsFor(reg, principal('bob')));
    expect(versionsIn(beta)).toEqual(['2.0.0']);
    expect(versionsIn(rest)).toEqual(['1.2.0']);
    expect(reg.listingFor(scopes, undefined, servedVersionsFor(reg, principal('cat', ['beta'])))).toBe(beta);
    expect(reg.listingFor(scopes, undefined, servedVersionsFor(reg, principal('dan')))).toBe(rest);
  });

  it('puts a subject in a stable bucket per tenant, subject and tool, and admits buckets below the percent', () => {
    expect(rolloutBucket('t1', 'alice', 'notes_get')).toBe(rolloutBucket('t1', 'alice', 'notes_get'));
    const buckets = Array.from({ length: 400 }, (_, i) => rolloutBucket('t1', `user-${i}`, 'notes_get'));
    expect(buckets.every((b) => Number.isInteger(b) && b >= 0 && b < 100)).toBe(true);
    const admitted = Array.from({ length: 400 }, (_, i) =>
      rolloutAdmits({ percent: 25 }, principal(`user-${i}`), 'notes_get'),
    ).filter(Boolean).length;
    expect(admitted).toBe(buckets.filter((b) => b < 25).length);
    expect(admitted).toBeGreaterThan(60);
    expect(admitted).toBeLessThan(140);
    expect(rolloutAdmits({ percent: 0 }, principal('user-1'), 'notes_get')).toBe(false);
    expect(rolloutAdmits({ percent: 100 }, principal('user-1'), 'notes_get')).toBe(true);
  });

  it('lets a pin of the served major through and nothing else', () => {
    const tool = registry().register(defineTool(notesGet)).get('notes_get')!;
    expect(pinAllows(undefined, tool)).toBe(true);
    expect(pinAllows({ [CONTRACT_VERSION_META_KEY]: '1' }, tool)).toBe(true);
    expect(pinAllows({ [CONTRACT_VERSION_META_KEY]: '1.0.0' }, tool)).toBe(true);
    expect(pinAllows({ [CONTRACT_VERSION_META_KEY]: '2.0.0' }, tool)).toBe(false);
    expect(pinAllows({ [CONTRACT_VERSION_META_KEY]: 1 }, tool)).toBe(false);
  });
});
