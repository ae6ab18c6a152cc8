import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ContractDocument, ContractTool } from '../../src/contract-artifacts/contract-document.ts';
import { lintContract } from '../../src/contract-artifacts/contract-lint.ts';
import {
  LINT_PROFILES,
  type LintProfileName,
  lintProfile,
} from '../../src/contract-artifacts/lint-profiles.ts';
import { providerInputSchema } from '../../src/contract-artifacts/provider-view.ts';
import { editTool, ticketContract } from './fixtures/ticket-tools.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const dir = mkdtempSync(join(tmpdir(), 'toolgate-profiles-'));

/** Every tool's input replaced by `input`: one schema, checked by every profile. */
function withInput(input: Record<string, unknown>): ContractDocument {
  let document = ticketContract();
  for (const { name } of document.tools)
    document = editTool(document, name, (tool: ContractTool) => {
      tool.input_schema = structuredClone(input);
    });
  return document;
}

const findings = (profile: LintProfileName, input: Record<string, unknown>) =>
  lintContract(withInput(input), LINT_PROFILES[profile])
    .findings.filter((f) => f.tool === 'tickets_get')
    .map((f) => `${f.rule} ${f.pointer}`);

/** The portable subset: closed, all required, a pattern and an enum of strings. */
const PORTABLE = {
  type: 'object',
  properties: {
    ticket_id: { type: 'string', pattern: '^tkt_[0-9]{1,8}$', description: 'The ticket.' },
    view: { type: 'string', enum: ['short', 'full'], description: 'How much to answer.' },
  },
  required: ['ticket_id', 'view'],
  additionalProperties: false,
};

describe("lint --profile: what each provider rejects in a tool's parameters", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('openai-strict flags an optional field, an open object, length bounds, a default and an unlisted format', () => {
    const input = {
      type: 'object',
      properties: {
        note: { type: 'string', minLength: 1, maxLength: 80, default: 'none' },
        link: { type: 'string', format: 'uri' },
        when: { type: 'string', format: 'date-time' },
        filter: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
      },
      required: ['note', 'when', 'filter'],
      additionalProperties: false,
    };
    expect(findings('openai-strict', input)).toEqual([
      'openai-strict/closed-objects /input_schema/properties/filter',
      'openai-strict/all-required /input_schema',
      'openai-strict/unsupported-keyword /input_schema/properties/note/minLength',
      'openai-strict/unsupported-keyword /input_schema/properties/note/maxLength',
      'openai-strict/unsupported-keyword /input_schema/properties/note/default',
      'openai-strict/unsupported-keyword /input_schema/properties/link/format',
    ]);
  });

  test('anthropic flags numeric and length bounds, maxItems, minItems past 1 and a lookahead; allows format uri', () => {
    const input = {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 1, maximum: 9 },
        tags: { type: 'array', items: { type: 'string', pattern: '^(?=x)x+$' }, minItems: 2, maxItems: 5 },
        link: { type: 'string', format: 'uri', maxLength: 200 },
      },
      required: ['count', 'tags', 'link'],
      additionalProperties: false,
    };
    expect(findings('anthropic', input)).toEqual([
      'anthropic/unsupported-keyword /input_schema/properties/count/minimum',
      'anthropic/unsupported-keyword /input_schema/properties/count/maximum',
      'anthropic/unsupported-keyword /input_schema/properties/tags/maxItems',
      'anthropic/unsupported-keyword /input_schema/properties/tags/minItems',
      'anthropic/unsupported-keyword /input_schema/properties/link/maxLength',
      'anthropic/pattern-features /input_schema/properties/tags/items/pattern',
    ]);
  });

  test('gemini flags additionalProperties, a type list, a const and an enum of numbers; allows length bounds', () => {
    const input = {
      type: 'object',
      properties: {
        note: { type: ['string', 'null'], maxLength: 80 },
        mode: { const: 'fast' },
        level: { type: 'integer', enum: [1, 2, 3] },
      },
      required: ['note'],
      additionalProperties: false,
    };
    expect(findings('gemini', input)).toEqual([
      'gemini/unsupported-keyword /input_schema/additionalProperties',
      'gemini/unsupported-keyword /input_schema/properties/mode/const',
      'gemini/type-list /input_schema/properties/note/type',
      'gemini/string-enum /input_schema/properties/level/enum',
    ]);
  });

  test('a provider view says in words what the provider refuses but only narrows, and changes nothing else', () => {
    const input = {
      type: 'object',
      properties: {
        note: { type: 'string', minLength: 1, maxLength: 80, default: 'none', description: 'A note.' },
        count: { type: 'integer', minimum: 1, maximum: 9 },
        mode: { const: 'fast' },
        maybe: { type: ['string', 'null'], pattern: '^[a-z]+$' },
      },
      required: ['note', 'count', 'mode', 'maybe'],
      additionalProperties: false,
    };
    const before = structuredClone(input);
    const openai = providerInputSchema('openai-strict', input);
    expect(input).toEqual(before);
    expect(openai.schema).toEqual({
      ...input,
      properties: {
        ...input.properties,
        note: {
          type: 'string',
          description: 'A note. (at least 1 character, at most 80 characters, default none)',
        },
      },
    });
    expect(openai.moved.map((m) => m.pointer)).toEqual([
      '/properties/note/minLength',
      '/properties/note/maxLength',
      '/properties/note/default',
    ]);
    const anthropic = providerInputSchema('anthropic', input).schema as {
      properties: Record<string, unknown>;
    };
    expect(anthropic.properties.count).toEqual({ type: 'integer', description: 'At least 1, at most 9.' });
    const gemini = providerInputSchema('gemini', input).schema as Record<string, unknown> & {
      properties: Record<string, unknown>;
    };
    expect(gemini.additionalProperties).toBeUndefined();
    expect(gemini.properties.mode).toEqual({ enum: ['fast'] });
    expect(gemini.properties.maybe).toEqual({ type: 'string', nullable: true, pattern: '^[a-z]+$' });
  });

  test('a profile lints the views: moved bounds pass, what no words carry is still named', () => {
    const input = {
      type: 'object',
      properties: {
        note: { type: 'string', minLength: 1, maxLength: 80, default: 'none' },
        link: { type: 'string', format: 'uri' },
        filter: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }], not: { const: 3 } },
        pair: { type: ['string', 'integer'] },
      },
      required: ['note', 'filter', 'either', 'pair'],
      additionalProperties: false,
    };
    const named = (profile: LintProfileName) =>
      lintProfile(profile, withInput(input))
        .findings.filter((f) => f.tool === 'tickets_get')
        .map((f) => `${f.rule} ${f.pointer}`);
    expect(named('openai-strict')).toEqual([
      'openai-strict/closed-objects /input_schema/properties/filter',
      'openai-strict/all-required /input_schema',
      'openai-strict/unsupported-keyword /input_schema/properties/either/not',
    ]);
    expect(named('anthropic')).toEqual(['anthropic/closed-objects /input_schema/properties/filter']);
    expect(named('gemini')).toEqual([
      'gemini/unsupported-keyword /input_schema/properties/either/not',
      'gemini/type-list /input_schema/properties/pair/type',
    ]);
    const report = lintProfile('openai-strict', withInput(input));
    expect(report.moved.get('tickets_get')?.map((m) => m.keyword)).toEqual([
      'minLength',
      'maxLength',
      'default',
      'format',
    ]);
  });

  test('the command reports per tool and exits like lint: 1 on a rejection, 0 when accepted, 2 for an unknown profile', () => {
    const lint = (document: ContractDocument, profile: string) => {
      const file = join(dir, `${profile}.json`);
      writeFileSync(file, JSON.stringify(document));
      return spawnSync(process.execPath, ['bin/toolgate.mjs', 'lint', file, '--profile', profile], {
        cwd: ROOT,
        encoding: 'utf8',
      });
    };
    const open = { ...PORTABLE, additionalProperties: true };
    const rejected = lint(withInput(open), 'openai-strict');
    expect(rejected.status, rejected.stderr).toBe(1);
    expect(rejected.stdout).toContain('tickets_get: 1 finding(s) openai-strict rejects');
    expect(rejected.stdout).toContain('tickets_open: 1 finding(s) openai-strict rejects');
    const accepted = lint(withInput(PORTABLE), 'openai-strict');
    expect(accepted.status, accepted.stdout).toBe(0);
    expect(accepted.stdout).toContain('tickets_get: accepted by openai-strict');
    expect(lint(withInput(PORTABLE), 'anthropic').status).toBe(0);
    const bounded = {
      ...PORTABLE,
      properties: { ...PORTABLE.properties, view: { ...PORTABLE.properties.view, maxLength: 5 } },
    };
    const said = lint(withInput(bounded), 'openai-strict');
    expect(said.status, said.stdout).toBe(0);
    expect(said.stdout).toContain(
      'tickets_get: accepted by openai-strict (1 bound(s) said in descriptions; the gateway enforces them)',
    );
    const unknown = lint(withInput(PORTABLE), 'mistral');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('use one of openai-strict, anthropic, gemini');
  });
});
