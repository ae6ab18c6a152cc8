import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ToolRegistry } from '../../packages/toolgate/src/contract/tool-registry.ts';
import { diffContracts } from '../../packages/toolgate/src/contract-artifacts/contract-diff.ts';
import { contractDocumentSchema } from '../../packages/toolgate/src/contract-artifacts/contract-document.ts';
import {
  buildContractDocument,
  contractSha256,
  definitionHash,
  serializeContract,
  sortKeysDeep,
} from '../../packages/toolgate/src/contract-artifacts/contract-export.ts';
import { editTool, ticketContract, ticketsGet, ticketsOpen } from './fixtures/ticket-tools.ts';

function keysSortedEverywhere(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(keysSortedEverywhere);
  if (value === null || typeof value !== 'object') return true;
  const keys = Object.keys(value);
  return (
    keys.join('\u0000') === [...keys].sort().join('\u0000') &&
    Object.values(value).every(keysSortedEverywhere)
  );
}

describe('contract export', () => {
  test('is byte-identical across builds and registration order, with tools sorted by name and keys sorted', () => {
    const first = serializeContract(ticketContract());
    const reversed = serializeContract(
      buildContractDocument(new ToolRegistry({ retentionSeconds: 3600 }).register(ticketsOpen, ticketsGet)),
    );
    expect(reversed).toBe(first);
    const parsed = JSON.parse(first);
    expect(parsed.tools.map((t: { name: string }) => t.name)).toEqual(['tickets_get', 'tickets_open']);
    expect(keysSortedEverywhere(parsed)).toBe(true);
    expect(first.endsWith('}\n')).toBe(true);
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
  });

  test('publishes what the issue lists for every tool, and parses back as a contract document', () => {
    const document = contractDocumentSchema.parse(JSON.parse(serializeContract(ticketContract())));
    const [get, open] = document.tools;
    expect(get).toMatchObject({
      name: 'tickets_get',
      title: 'Get a ticket',
      kind: 'read',
      mutation: null,
      version: '1.2.0',
      scopes: ['tickets:read'],
      timeout_ms: 3000,
      idempotency: null,
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
    expect(get!.errors).toContainEqual(
      expect.objectContaining({ code: 'TICKET_NOT_FOUND', category: 'not_found', retryable: false }),
    );
    expect(get!.errors.map((e) => e.code)).toEqual([...get!.errors.map((e) => e.code)].sort());
    expect(get!.input_schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['ticket_id'],
    });
    expect(get!.output_schema).toMatchObject({
      type: 'object',
      properties: { result: { anyOf: [{ type: 'object' }, { type: 'null' }] } },
    });
    expect(open).toMatchObject({
      kind: 'write',
      mutation: 'create',
      supports_dry_run: true,
      external_systems: ['desk'],
      idempotency: { retention_seconds: 3600, dry_run_reserves_key: false },
      examples: [expect.objectContaining({ title: 'Validate a billing ticket' })],
    });
  });

  test('the definition hash covers exactly what the model reads', () => {
    const base = ticketContract();
    const get = base.tools[0]!;
    expect(get.definition_sha256).toBe(definitionHash(get));
    const reordered = sortKeysDeep({
      ...get,
      input_schema: Object.fromEntries(Object.entries(get.input_schema).reverse()),
    });
    expect(definitionHash(reordered as typeof get)).toBe(get.definition_sha256);
    const hashAfter = (edit: Parameters<typeof editTool>[2]) =>
      editTool(base, 'tickets_get', edit).tools[0]!.definition_sha256;
    expect(
      hashAfter((t) => {
        t.description += ' Never guess.';
      }),
    ).not.toBe(get.definition_sha256);
    expect(
      hashAfter((t) => {
        t.annotations.title = 'Fetch a ticket';
      }),
    ).not.toBe(get.definition_sha256);
    expect(
      hashAfter((t) => {
        (t.input_schema.properties as Record<string, { description: string }>).ticket_id!.description = 'Id.';
      }),
    ).not.toBe(get.definition_sha256);
    // Server-side policy is versioned in the contract but is not part of the agent-visible definition.
    expect(
      hashAfter((t) => {
        t.timeout_ms = 9000;
        t.scopes = ['tickets:audit'];
      }),
    ).toBe(get.definition_sha256);
  });

  test('names the implementation that exported it, which neither the diff nor the contract hash sees', () => {
    const { version } = JSON.parse(readFileSync('packages/toolgate/package.json', 'utf8')) as {
      version: string;
    };
    const text = serializeContract(ticketContract());
    const exported = contractDocumentSchema.parse(JSON.parse(text));
    expect(exported.implementation).toBe(`toolgate ${version}`);
    const { implementation: _implementation, ...olderExport } = exported;
    const rebuilt = { ...exported, implementation: 'toolgate 9.9.9' };
    expect(diffContracts(exported, rebuilt)).toEqual({
      changes: [],
      verdicts: exported.tools.map((t) => expect.objectContaining({ tool: t.name, accepted: true })),
      ok: true,
    });
    // The hash is the file's without its implementation line, so an older export hashes the same.
    const withoutLine = text
      .split('\n')
      .filter((line) => !line.startsWith('  "implementation": '))
      .join('\n');
    expect(contractSha256(exported)).toBe(createHash('sha256').update(withoutLine).digest('hex'));
    expect(contractSha256(rebuilt)).toBe(contractSha256(exported));
    expect(contractSha256(olderExport)).toBe(contractSha256(exported));
    const changedTool = editTool(exported, 'tickets_get', (t) => {
      t.description += ' Never guess.';
    });
    expect(contractSha256(changedTool)).not.toBe(contractSha256(exported));
  });
});
