import type { OutcomeEnvelope } from 'toolgate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../../../test/support/pg.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { formatAtOffset } from '../../src/changes/rfc3339.ts';
import { DEMO_POLICY_DIR } from '../../src/demo-policies.ts';

const havePostgres = await postgresAvailable();
const STORES = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
] as const;

/** A principal with the production scope but no membership of any owning group. */
const OUTSIDER = {
  sub: 'eng.outsider',
  tenant: 'acme',
  actor: 'support_agent' as const,
  scopes: ['changes:read', 'cmdb:read', 'changes:create', 'changes:create:production', 'operations:read'],
  groups: ['team-unrelated'],
};

let seq = 0;
function stagingChange(serviceId: string): Record<string, unknown> {
  seq += 1;
  return {
    service_id: serviceId,
    environment: 'staging',
    summary: 'Raise the client timeout of the service to eight seconds',
    implementation_plan: 'Change the timeout in the config repository, deploy with the standard pipeline.',
    rollback_plan: 'Revert the config commit and redeploy the previous release with the standard pipeline.',
    start_time: formatAtOffset(Date.now() + 2 * 86_400_000, 0),
    duration_minutes: 60,
    risk: 'low',
    dry_run: false,
    idempotency_key: `policy-decisions-${process.pid}-${seq}`.padEnd(24, '0'),
  };
}

for (const store of STORES) {
  describe.skipIf(store.postgres && !havePostgres)(`the policy layer (${store.name})`, () => {
    let gateway: StartedGateway;
    let scratch: ScratchDatabase | undefined;

    beforeAll(async () => {
      scratch = store.postgres ? await createScratchDatabase() : undefined;
      gateway = await startGateway({
        testApi: true,
        app: { policyDir: DEMO_POLICY_DIR },
        ...(scratch ? { databaseUrl: scratch.url } : {}),
      });
    });
    afterAll(async () => {
      await gateway?.close();
      await scratch?.drop();
    });

    async function changeRecords(serviceId: string): Promise<number> {
      const [row] = await gateway.app.db.query<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM ext_change_records WHERE service_id = ?',
        [serviceId],
      );
      return Number(row?.n ?? 0);
    }
    async function operationsWithKey(key: unknown): Promise<number> {
      const [row] = await gateway.app.db.query<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM operations WHERE idem_key = ?',
        [String(key)],
      );
      return Number(row?.n ?? 0);
    }
    async function createEffects(): Promise<number> {
      const answer = await gateway.testApi('GET', '/test-api/effects?target=change_platform');
      const body = answer.body as { effects: { action: string }[] };
      return body.effects.filter((e) => e.action === 'create_record').length;
    }

    it('denies a change to a service of another team: nothing reserved, recorded or sent', async () => {
      const before = { records: await changeRecords('ledger-db'), effects: await createEffects() };
      const args = stagingChange('ledger-db');
      const denied = await gateway.callTool(OUTSIDER, 'change_create', args);
      expect(denied).toMatchObject({
        status: 'failed',
        code: 'POLICY_DENIED',
        category: 'authorization',
        operation_id: null,
        message: 'Only members of the group that owns the service may create changes for it.',
      });
      expect(denied.resolution).toContain('changes-owner-group');
      expect(await changeRecords('ledger-db')).toBe(before.records);
      expect(await createEffects()).toBe(before.effects);
      expect(await operationsWithKey(args.idempotency_key)).toBe(0);
      // The demo engineer is not in team-ledger either: production scope alone is not authority.
      const engineer = await gateway.callTool(
        'changes_engineer',
        'change_create',
        stagingChange('ledger-db'),
      );
      expect(engineer.code).toBe('POLICY_DENIED');
      expect(await changeRecords('ledger-db')).toBe(before.records);
    });

    it('lets a member of the owning group create the change', async () => {
      const before = await changeRecords('checkout-web');
      const created = await gateway.callTool(
        'changes_engineer',
        'change_create',
        stagingChange('checkout-web'),
      );
      expect(created, JSON.stringify(created)).toMatchObject({ status: 'completed' });
      expect(await changeRecords('checkout-web')).toBe(before + 1);
    });

    it('names the production forbid when a member lacks the production scope', async () => {
      const args = { ...stagingChange('payments-api'), environment: 'production', dry_run: true };
      const denied = await gateway.callTool('changes_engineer_nonprod', 'change_create', args);
      expect(denied).toMatchObject({
        code: 'POLICY_DENIED',
        message: 'Production changes need the changes:create:production scope.',
      });
      expect(denied.resolution).toContain('changes-production-scope');
    });

    it("answers another tenant's service as the domain answers a missing one", async () => {
      const foreign = await gateway.callTool('changes_engineer', 'change_create', {
        ...stagingChange('storefront-api'),
        dry_run: true,
      });
      const missing = await gateway.callTool('changes_engineer', 'change_create', {
        ...stagingChange('no-such-service'),
        dry_run: true,
      });
      expect(foreign.code).not.toBe('POLICY_DENIED');
      expect(foreign.code).toBe(missing.code);
    });

    it('denies a work item in a project the caller only reads: no draft stored', async () => {
      const reader = {
        sub: 'usr_wi_bob',
        tenant: 'acme',
        actor: 'support_agent' as const,
        scopes: ['workitems:read', 'workitems:write'],
      };
      const drafts = async () => {
        const [row] = await gateway.app.db.query<{ n: number | string }>(
          'SELECT COUNT(*) AS n FROM workitems_drafts',
        );
        return Number(row?.n ?? 0);
      };
      const before = await drafts();
      const denied = await gateway.callTool(reader, 'workitems_create_draft', {
        project_id: 'WEB',
        title: 'Update the returns policy page',
        idempotency_key: `policy-draft-${process.pid}-${store.name}`.padEnd(24, '0'),
      });
      expect(denied).toMatchObject({
        code: 'POLICY_DENIED',
        message: expect.stringContaining('write membership'),
      });
      expect(await drafts()).toBe(before);
      // A member writes there.
      const drafted = await gateway.callTool('workitems_member', 'workitems_create_draft', {
        project_id: 'WEB',
        title: 'Update the returns policy page',
        idempotency_key: `policy-draft-ok-${process.pid}-${store.name}`.padEnd(24, '0'),
      });
      expect(drafted.status).toBe('completed');
      expect(await drafts()).toBe(before + 1);
    });

    it("denies a support agent a customer's address change: the order is unchanged", async () => {
      const fixtures = (await gateway.testApi('GET', '/test-api/fixtures')).body as {
        orders: {
          all: { order_id: string; owner: string | null; fulfilment_state: string; version: number }[];
          address_samples: Record<string, unknown>;
        };
      };
      const order = fixtures.orders.all.find(
        (o) => o.owner === 'acme-customer-alice' && o.fulfilment_state === 'pending',
      )!;
      const agent = {
        sub: 'agt_acme_sam',
        tenant: 'acme',
        actor: 'support_agent' as const,
        scopes: ['orders:read', 'orders:write'],
      };
      const denied = await gateway.callTool(agent, 'orders_change_unshipped_address', {
        order_id: order.order_id,
        expected_order_version: order.version,
        new_address: fixtures.orders.address_samples.clean_us,
        idempotency_key: `policy-order-${process.pid}-${store.name}`.padEnd(24, '0'),
      });
      expect(denied).toMatchObject({ status: 'failed', code: 'POLICY_DENIED' });
      expect(denied.message).toBe('Only the customer who placed the order may change its address.');
      const [row] = await gateway.app.db.query<{
        version: number | string;
        pending_change_id: string | null;
      }>('SELECT version, pending_change_id FROM orders WHERE id = ?', [order.order_id]);
      expect({ version: Number(row?.version), pending: row?.pending_change_id ?? null }).toEqual({
        version: order.version,
        pending: null,
      });
    });

    it('audits a deny with the policy version and the denying policy', async () => {
      const version = gateway.app.gateway.policyVersion;
      expect(version).toMatch(/^[0-9a-f]{12}$/);
      const args = stagingChange('ledger-db');
      const denied: OutcomeEnvelope = await gateway.callTool(OUTSIDER, 'change_create', args);
      expect(denied.code).toBe('POLICY_DENIED');
      const entries = await gateway.app.operations.audit.list({
        tenant: 'acme',
        subject: OUTSIDER.sub,
        limit: 50,
      });
      const last = entries.at(-1)!;
      expect(last).toMatchObject({ code: 'POLICY_DENIED', policy_version: version });
      expect(last.detail).toMatchObject({
        policy_version: version,
        policy_denied_by: 'changes-owner-group',
        retryable: false,
      });
      // The operator API's audit rows carry it too.
      const operator = await gateway.tokenFor('acme-operator-olivia');
      const answer = await fetch(`${gateway.origin}/operator/v1/audit?subject=${OUTSIDER.sub}`, {
        headers: { authorization: `Bearer ${operator}` },
      });
      const rows = ((await answer.json()) as { entries: { code: string; policy_version: string }[] }).entries;
      expect(rows.at(-1)).toMatchObject({ code: 'POLICY_DENIED', policy_version: version });
      const metrics = await gateway.app.metrics.registry.metrics();
      expect(metrics).toMatch(
        /toolgate_policy_denials_total\{tool="change_create",reason="changes-owner-group"\} \d+/,
      );
    });
  });
}
