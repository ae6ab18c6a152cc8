import type { OutcomeEnvelope } from 'toolgate';
import { ShiftableClock } from 'toolgate/server';
import { confirmingClient } from 'toolgate/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { workitemsDomain } from '../../src/workitems/workitems-module.ts';
import { newKey } from './workitems-app.ts';

const MEMBER = 'workitems_member';
const TOOLS = ['workitems_commit', 'workitems_create_draft', 'workitems_get', 'workitems_search'];

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema> };

/** Pointers of input properties lacking a description or a bound on their size. */
function unboundedOrUndescribed(schema: JsonSchema, at = ''): string[] {
  const problems: string[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const where = `${at}/${name}`;
    if (typeof prop.description !== 'string' || prop.description.length < 10)
      problems.push(`${where}: description`);
    const bounded =
      prop.enum !== undefined ||
      prop.type === 'boolean' ||
      (prop.type === 'string' && (prop.maxLength !== undefined || prop.pattern !== undefined)) ||
      (prop.type === 'integer' && prop.maximum !== undefined) ||
      (prop.type === 'array' && prop.maxItems !== undefined);
    if (!bounded) problems.push(`${where}: unbounded`);
  }
  return problems;
}

describe('workitems over MCP', () => {
  let gw: StartedGateway;
  const clock = new ShiftableClock();
  beforeAll(async () => {
    gw = await startGateway({
      modules: [workitemsDomain],
      testApi: true,
      app: { backgroundJobs: false, clock },
    });
  });
  afterAll(async () => {
    await gw?.close();
  });
  beforeEach(async () => {
    expect((await gw.testApi('POST', '/test-api/reset')).status).toBe(200);
  });

  const commitNew = async (project: string, title: string): Promise<OutcomeEnvelope> => {
    const draft = await gw.callTool(MEMBER, 'workitems_create_draft', {
      project_id: project,
      title,
      idempotency_key: newKey('mcp-draft'),
    });
    const draftId = (draft.result as { draft: { draft_id: string } }).draft.draft_id;
    // The member accepts the confirmation every commit asks for.
    const { client } = await confirmingClient(gw.url, await gw.tokenFor(MEMBER), [{ action: 'accept' }]);
    const answer = await client.callTool({
      name: 'workitems_commit',
      arguments: { draft_id: draftId, idempotency_key: newKey('mcp-commit') },
    });
    await client.close();
    return answer.structuredContent as unknown as OutcomeEnvelope;
  };

  it('lists the four tools with closed, described, bounded inputs and the tracker limitation in the contract', async () => {
    const client = await gw.client(MEMBER);
    const { tools } = await client.listTools();
    const ours = tools.filter((t) => t.name.startsWith('workitems_'));
    expect(ours.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of ours) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(unboundedOrUndescribed(tool.inputSchema as JsonSchema)).toEqual([]);
    }
    const commit = ours.find((t) => t.name === 'workitems_commit')!;
    expect(commit.description).toContain('unprotected');
    expect(commit.description).toContain('POSSIBLE_DUPLICATE');
    expect(commit.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });
    const meta = commit._meta?.['io.toolgate/contract'] as {
      notes: string[];
      scopes: string[];
      error_codes: string[];
    };
    expect(meta.scopes).toEqual(['workitems:write']);
    expect(meta.notes.join(' ')).toContain('without duplicate protection');
    expect(meta.error_codes).toEqual(
      expect.arrayContaining(['POSSIBLE_DUPLICATE', 'OUTCOME_UNKNOWN', 'PROJECT_ACCESS_DENIED']),
    );
  });

  it('publishes the demo projects and principals in the fixtures', async () => {
    const { status, body } = await gw.testApi('GET', '/test-api/fixtures');
    expect(status).toBe(200);
    const fixtures = body as {
      workitems: { projects_by_role: Record<string, string>; items: { item_id: string }[] };
      principals: { name: string; tenant: string }[];
    };
    expect(fixtures.workitems.projects_by_role).toEqual({
      writable_idempotent: 'WEB',
      writable_unprotected: 'OPS',
      restricted_read_only: 'SEC',
      other_tenant: 'APP',
    });
    expect(fixtures.workitems.items.map((i) => i.item_id)).toContain('OPS-2');
    expect(fixtures.principals.map((p) => [p.name, p.tenant])).toEqual(
      expect.arrayContaining([
        ['workitems_member', 'acme'],
        ['workitems_viewer', 'acme'],
        ['workitems_other_tenant', 'globex'],
      ]),
    );
  });

  it('creates one item through MCP, visible in the effects ledger of the test API', async () => {
    const commit = await commitNew('WEB', 'Gift cards cannot be combined');
    expect(commit).toMatchObject({ status: 'completed', result: { item: { item_id: 'WEB-4' } } });
    const { body } = await gw.testApi('GET', '/test-api/effects?target=tracker&ref=WEB-4');
    const effects = (body as { effects: { action: string; requestId: string }[] }).effects;
    expect(effects.map((e) => [e.action, e.requestId])).toEqual([['create_item', commit.operation_id]]);
  });

  it('a lost answer from the unprotected tracker is outcome_unknown and parked for review, never re-sent', async () => {
    const armed = await gw.testApi('POST', '/test-api/faults', {
      target: 'tracker',
      fault: 'drop_response_after_apply',
      match: { action: 'create_item', project: 'OPS' },
    });
    expect(armed.status).toBe(201);
    const lost = await commitNew('OPS', 'Disk alarms on db-3 are flapping');
    expect(lost).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN', category: 'uncertain' });
    clock.shift(60_000);
    expect(await gw.app.operations.reconciler.runOnce()).toMatchObject({ escalated: 1 });
    const status = await gw.callTool(MEMBER, 'operations_get', { operation_id: lost.operation_id });
    expect(status.result).toMatchObject({ status: 'needs_review' });
    const { body } = await gw.testApi('GET', '/test-api/effects?target=tracker&action=create_item');
    expect((body as { effects: { ref: string }[] }).effects.map((e) => e.ref)).toEqual(['OPS-3']);
  });

  it('moves an item by a world action and reads the new tracker state', async () => {
    const moved = await gw.testApi('POST', '/test-api/simulate', {
      target: 'tracker',
      action: 'set_item_state',
      params: { item_id: 'WEB-1', state: 'closed' },
    });
    expect(moved).toMatchObject({ status: 200, body: { outcome: { item_id: 'WEB-1', state: 'closed' } } });
    const read = await gw.callTool(MEMBER, 'workitems_get', { id: 'WEB-1' });
    expect(read).toMatchObject({ status: 'completed', result: { item: { state: 'closed' } } });
  });
});
