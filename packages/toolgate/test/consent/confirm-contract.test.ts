import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONSENT_KEY_FILE, loadConsentKey } from '../../src/auth/consent-key.ts';
import type { ConfirmSpec } from '../../src/contract/confirmation.ts';
import { defineTool } from '../../src/contract/define-tool.ts';
import { outcome } from '../../src/contract/outcome.ts';
import { idempotencyKeySchema } from '../../src/contract/schema-helpers.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import { buildContractDocument } from '../../src/contract-artifacts/contract-export.ts';
import { renderToolCatalog } from '../../src/contract-artifacts/tool-catalog-doc.ts';

const input = z.strictObject({
  item: z.string().max(20).describe('The item.'),
  idempotency_key: idempotencyKeySchema,
});
const ask: ConfirmSpec<unknown>['ask'] = async () => ({ message: 'Remove the item.' });

function removal(confirm: Record<string, unknown>, shape = input) {
  return defineTool({
    name: 'shop_remove_item',
    title: 'Remove an item',
    description: 'Removes one item from the shop; a person confirms every removal before it runs.',
    kind: 'write',
    mutation: 'delete',
    version: '1.0.0',
    input: shape,
    output: z.strictObject({ removed: z.boolean() }),
    errors: [],
    scopes: ['shop:write'],
    timeoutMs: 1_000,
    examples: [],
    confirm: confirm as never,
    handler: async () => outcome.completed({ removed: true }),
    reconcile: async () => ({ settled: false, note: 'unknown' }),
  });
}

describe('a tool that asks a person to confirm', () => {
  it('lists the confirmation codes of its fallback and publishes when and how it confirms', () => {
    const tool = removal({ when: 'always', ask });
    expect(tool.errors.map((e) => e.code)).toEqual(
      expect.arrayContaining(['CONFIRMATION_DECLINED', 'CONFIRMATION_MISMATCH', 'CONFIRMATION_UNAVAILABLE']),
    );
    expect(tool.errors.map((e) => e.code)).not.toContain('CONFIRMATION_REQUIRED');
    const document = buildContractDocument(new ToolRegistry({ retentionSeconds: 60 }).register(tool));
    const published = document.tools.find((t) => t.name === 'shop_remove_item')!;
    expect(published.confirmation).toEqual({ when: 'always', fallback: 'refuse' });
    expect(renderToolCatalog(document)).toContain('| Confirmation | a person confirms always');
  });

  it('with the operator fallback, publishes it and lists the codes of a parked call', () => {
    const tool = removal({ when: 'always', ask, fallback: 'operator' });
    const codes = tool.errors.map((e) => e.code);
    expect(codes).toEqual(
      expect.arrayContaining([
        'CONFIRMATION_DECLINED',
        'CONFIRMATION_MISMATCH',
        'CONFIRMATION_PENDING',
        'CONFIRMATION_EXPIRED',
      ]),
    );
    expect(codes).not.toContain('CONFIRMATION_UNAVAILABLE');
    expect(tool.errors.find((e) => e.code === 'CONFIRMATION_PENDING')).toMatchObject({
      status: 'in_progress',
    });
    expect(tool.errors.find((e) => e.code === 'CONFIRMATION_EXPIRED')).toMatchObject({ status: 'rejected' });
    const document = buildContractDocument(new ToolRegistry({ retentionSeconds: 60 }).register(tool));
    const published = document.tools.find((t) => t.name === 'shop_remove_item')!;
    expect(published.confirmation).toEqual({ when: 'always', fallback: 'operator' });
    expect(renderToolCatalog(document)).toContain('until an approver confirms it in the operator console');
  });

  it('refuses a contract that cannot be served', () => {
    expect(() => removal({ when: 'always', ask, fallback: 'agent' })).toThrow(
      /needs an optional string input field confirmation/,
    );
    expect(() => removal({ when: ' ', ask })).toThrow(/confirm.when/);
    expect(() => removal({ when: 'always', ask, fallback: 'anyone' })).toThrow(/confirm.fallback anyone/);
    const relayed = removal(
      { when: 'always', ask, fallback: 'agent' },
      input.extend({ confirmation: z.string().max(64).optional().describe('The confirmation shown.') }),
    );
    expect(relayed.errors.map((e) => e.code)).toContain('CONFIRMATION_REQUIRED');
  });
});

describe('the consent key', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolgate-consent-'));
    dirs.push(dir);
    return dir;
  };

  it('is created once per data dir, private, and the same for every gateway on it', () => {
    const dir = dataDir();
    const key = loadConsentKey(dir, {});
    expect(Buffer.byteLength(key)).toBeGreaterThanOrEqual(32);
    expect(loadConsentKey(dir, {})).toBe(key);
    expect(statSync(join(dir, CONSENT_KEY_FILE)).mode & 0o077).toBe(0);
    expect(loadConsentKey(dataDir(), {})).not.toBe(key);
  });

  it('comes from TOOLGATE_CONSENT_KEY when set, which must be long enough', () => {
    const fleet = 'k'.repeat(40);
    expect(loadConsentKey(dataDir(), { TOOLGATE_CONSENT_KEY: fleet })).toBe(fleet);
    expect(() => loadConsentKey(dataDir(), { TOOLGATE_CONSENT_KEY: 'short' })).toThrow(/at least 32 bytes/);
  });

  it('refuses a key file that holds no usable key', () => {
    const dir = dataDir();
    writeFileSync(join(dir, CONSENT_KEY_FILE), 'tiny\n', { mode: 0o600 });
    expect(() => loadConsentKey(dir, {})).toThrow(/no usable consent key/);
  });
});
