import type { OutcomeEnvelope } from 'toolgate';
import { confirmingClient } from 'toolgate/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';
import { formatAtOffset } from '../../src/changes/rfc3339.ts';

interface ServiceFixture {
  tenant: string;
  service_id: string;
  next_production_window: { starts_at: string } | null;
}

describe('change management over MCP and the test API', () => {
  let gateway: StartedGateway;
  let request: Record<string, unknown>;
  let keySeq = 0;

  beforeAll(async () => {
    gateway = await startGateway({ modules: [changesDomain], testApi: true });
  });
  afterEach(async () => {
    await gateway.testApi('POST', '/test-api/reset');
  });
  afterAll(async () => {
    await gateway?.close();
  });

  /** A change_create call from a client whose user accepts the confirmation of a production change. */
  async function createAccepted(args: Record<string, unknown>) {
    const { client, asked } = await confirmingClient(
      gateway.url,
      await gateway.tokenFor('changes_engineer'),
      [{ action: 'accept' }],
    );
    const answer = await client.callTool({ name: 'change_create', arguments: args });
    await client.close();
    return { envelope: answer.structuredContent as unknown as OutcomeEnvelope, asked };
  }

  /** A production request for payments-api inside the next window the fixtures name. */
  async function productionRequest(overrides: Record<string, unknown> = {}) {
    const fixtures = (await gateway.testApi('GET', '/test-api/fixtures')).body as {
      changes: { services: ServiceFixture[] };
    };
    const payments = fixtures.changes.services.find((s) => s.service_id === 'payments-api')!;
    const start = Date.parse(payments.next_production_window!.starts_at) + 15 * 60_000;
    keySeq += 1;
    request = {
      service_id: 'payments-api',
      environment: 'production',
      summary: 'Deploy payment timeout configuration update',
      implementation_plan:
        'Validate current values, apply the approved configuration package, restart one instance at a time.',
      rollback_plan:
        'Rollback if the error rate exceeds the threshold for five minutes: restore the previous package.',
      start_time: formatAtOffset(start, -300),
      duration_minutes: 60,
      risk: 'medium',
      idempotency_key: `mcp-change-${process.pid}-${keySeq}`.padEnd(16, '0'),
      ...overrides,
    };
    return request;
  }

  it('lists the four tools with closed schemas, the dry-run default and the contract metadata', async () => {
    const client = await gateway.client('changes_engineer');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).filter((n) => n.startsWith('change') || n.startsWith('cmdb'));
    expect(names.sort()).toEqual(['change_create', 'change_get', 'change_search', 'cmdb_service_resolve']);
    const create = tools.find((t) => t.name === 'change_create')!;
    expect(create.inputSchema).toMatchObject({
      additionalProperties: false,
      properties: {
        dry_run: { type: 'boolean', default: true },
        duration_minutes: { minimum: 15, maximum: 480 },
      },
    });
    expect(create.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(create.description).toContain('Do not use it for emergency changes');
    const meta = create._meta?.['io.toolgate/contract'] as { error_codes: string[]; scopes: string[] };
    expect(meta.scopes).toEqual(['changes:create']);
    expect(meta.error_codes).toEqual(
      expect.arrayContaining([
        'UNKNOWN_SERVICE',
        'MAINTENANCE_WINDOW_REQUIRED',
        'CHANGE_FREEZE_ACTIVE',
        'FORBIDDEN',
      ]),
    );
  });

  it('validates, then creates once; the effects ledger shows the four steps for that change', async () => {
    const dry = await gateway.callTool('changes_engineer', 'change_create', await productionRequest());
    expect(dry).toMatchObject({ status: 'validated', result: { change_id: null } });
    const { envelope: created, asked } = await createAccepted({ ...request, dry_run: false });
    expect(asked).toHaveLength(1);
    expect(created).toMatchObject({
      status: 'completed',
      result: { state: 'pending_approval', created: true },
    });
    const changeId = created.result!.change_id as string;
    const effects = (await gateway.testApi('GET', `/test-api/effects?target=change_platform&ref=${changeId}`))
      .body as { effects: { action: string; requestId: string }[] };
    expect(effects.effects.map((e) => e.action)).toEqual([
      'create_record',
      'attach_implementation_plan',
      'attach_rollback_plan',
      'request_approval',
    ]);
    expect(new Set(effects.effects.map((e) => e.requestId))).toEqual(new Set([created.operation_id]));
  });

  it('turns a freeze on and off through POST /test-api/simulate', async () => {
    const on = await gateway.testApi('POST', '/test-api/simulate', {
      target: 'change_platform',
      action: 'set_freeze',
      params: { hours: 24 * 30, reason: 'Peak season' },
    });
    expect(on).toMatchObject({ status: 200, body: { outcome: { freeze: { reason: 'Peak season' } } } });
    const fixtures = (await gateway.testApi('GET', '/test-api/fixtures')).body as {
      changes: { freeze_by_tenant: Record<string, unknown> };
    };
    expect(fixtures.changes.freeze_by_tenant.acme).toMatchObject({ reason: 'Peak season' });
    const refused = await gateway.callTool('changes_engineer', 'change_create', await productionRequest());
    expect(refused).toMatchObject({ status: 'rejected', code: 'CHANGE_FREEZE_ACTIVE' });
    await gateway.testApi('POST', '/test-api/simulate', {
      target: 'change_platform',
      action: 'clear_freeze',
      params: {},
    });
    expect(await gateway.callTool('changes_engineer', 'change_create', request)).toMatchObject({
      status: 'validated',
    });
  });

  it('refuses smuggled control fields and production without the scope, creating nothing', async () => {
    const client = await gateway.client('changes_engineer');
    const smuggled = await client.callTool({
      name: 'change_create',
      arguments: { ...(await productionRequest({ dry_run: false })), skip_approval: true },
    });
    expect(smuggled.isError).toBe(true);
    expect(smuggled.structuredContent).toMatchObject({
      code: 'INVALID_ARGUMENT',
      field_errors: [{ field: 'skip_approval', code: 'UNKNOWN_FIELD' }],
    });
    const forbidden = await gateway.callTool('changes_engineer_nonprod', 'change_create', request);
    expect(forbidden).toMatchObject({ status: 'failed', code: 'FORBIDDEN', category: 'authorization' });
    const effects = (await gateway.testApi('GET', '/test-api/effects?target=change_platform')).body as {
      effects: unknown[];
    };
    expect(effects.effects).toEqual([]);
  });

  it('finishes a change interrupted by a platform outage in the background; operations_get shows it', async () => {
    const armed = await gateway.testApi('POST', '/test-api/faults', {
      target: 'change_platform',
      fault: 'unavailable',
      match: { action: 'attach_rollback_plan' },
    });
    expect(armed.status).toBe(201);
    const { envelope: unknown } = await createAccepted(await productionRequest({ dry_run: false }));
    expect(unknown).toMatchObject({ status: 'outcome_unknown', code: 'OUTCOME_UNKNOWN' });
    await expect
      .poll(
        async () =>
          (
            await gateway.callTool('changes_engineer', 'operations_get', {
              operation_id: unknown.operation_id,
            })
          ).result?.status,
        { timeout: 15_000, interval: 250 },
      )
      .toBe('completed');
    const replay = await gateway.callTool('changes_engineer', 'change_create', request);
    expect(replay).toMatchObject({
      status: 'completed',
      replayed: true,
      result: { state: 'pending_approval' },
    });
    const effects = (
      await gateway.testApi('GET', `/test-api/effects?target=change_platform&ref=${replay.result!.change_id}`)
    ).body as { effects: { action: string }[] };
    expect(effects.effects.map((e) => e.action)).toEqual([
      'create_record',
      'attach_implementation_plan',
      'attach_rollback_plan',
      'request_approval',
    ]);
  });
});
