import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_POLICY_DIR } from '@toolgate/domains';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineModule } from '../../src/app/module.ts';
import { defineException } from '../../src/contract/define-exception.ts';
import { ToolRegistry } from '../../src/contract/tool-registry.ts';
import { diffContracts } from '../../src/contract-artifacts/contract-diff.ts';
import { contractDocumentSchema } from '../../src/contract-artifacts/contract-document.ts';
import {
  buildContractDocument,
  contractSha256,
  definitionHash,
  FRAMEWORK_BUILD,
  serializeContract,
  sortKeysDeep,
} from '../../src/contract-artifacts/contract-export.ts';
import { buildServedContract } from '../../src/contract-artifacts/served-contract.ts';
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
    expect(exported.implementation).toEqual({ name: null, version: null, framework: `toolgate ${version}` });
    expect(FRAMEWORK_BUILD).toBe(`toolgate ${version}`);
    const { implementation: _implementation, ...olderExport } = exported;
    const rebuilt = {
      ...exported,
      implementation: {
        name: 'help-desk',
        version: '2.0.0',
        commit: 'a'.repeat(40),
        dirty: false,
        framework: 'toolgate 9.9.9',
      },
    };
    const oneLine = { ...exported, implementation: 'toolgate 0.1.0' };
    expect(diffContracts(exported, rebuilt)).toEqual({
      changes: [],
      verdicts: exported.tools.map((t) => expect.objectContaining({ tool: t.name, accepted: true })),
      ok: true,
    });
    // The hash is the file's with only its format and tools, so an older export hashes the same.
    const toolsOnly = serializeContract({ format: exported.format, tools: exported.tools });
    expect(contractSha256(exported)).toBe(createHash('sha256').update(toolsOnly).digest('hex'));
    expect(contractSha256(rebuilt)).toBe(contractSha256(exported));
    expect(contractSha256(oneLine)).toBe(contractSha256(exported));
    expect(contractSha256(olderExport)).toBe(contractSha256(exported));
    const changedTool = editTool(exported, 'tickets_get', (t) => {
      t.description += ' Never guess.';
    });
    expect(contractSha256(changedTool)).not.toBe(contractSha256(exported));
  });

  test('lists the exception kinds and approver scopes the modules declare, and the policy set, outside the hash', async () => {
    const refund = defineException({
      kind: 'refund_over_limit',
      title: 'Refund above the limit',
      description: 'Lets refunds of one customer exceed the limit for a day.',
      target: z.strictObject({ customer_id: z.string().max(40) }),
      grantScope: 'refunds:approve',
      maxDurationSeconds: 86_400,
    });
    const desk = defineModule({
      name: 'desk',
      create: () => ({ tools: [ticketsGet, ticketsOpen], exceptions: [refund] }),
    });
    const document = await buildServedContract([desk], { policyDir: DEMO_POLICY_DIR });
    expect(contractDocumentSchema.parse(JSON.parse(serializeContract(document)))).toEqual(document);
    expect(document.exceptions).toEqual([
      {
        kind: 'refund_over_limit',
        title: 'Refund above the limit',
        description: 'Lets refunds of one customer exceed the limit for a day.',
        grant_scope: 'refunds:approve',
        max_duration_seconds: 86_400,
        target_schema: refund.targetJsonSchema,
      },
    ]);
    expect(document.approver_scopes).toEqual([
      { scope: 'refunds:approve', gates: [{ gates: 'exception', kind: 'refund_over_limit' }] },
    ]);
    expect(document.policy_set?.policy_version).toMatch(/^[0-9a-f]{12}$/);
    expect(document.policy_set?.files[0]).toEqual({
      path: 'toolgate.cedarschema',
      sha256: createHash('sha256')
        .update(readFileSync(join(DEMO_POLICY_DIR, 'toolgate.cedarschema')))
        .digest('hex'),
    });
    // Without policies or declarations the fields are there and empty; the tools hash the same either way.
    const bare = await buildServedContract([
      defineModule({ name: 'desk', create: () => ({ tools: [ticketsGet, ticketsOpen] }) }),
    ]);
    expect(bare).toMatchObject({ policy_set: null, approver_scopes: [], exceptions: [] });
    expect(contractSha256(bare)).toBe(contractSha256(document));
  });
});
