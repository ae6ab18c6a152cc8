import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulationOf } from '@toolgate/simulation';
import { pino } from 'pino';
import type { Principal, SqlDatabase } from 'toolgate';
import { createApp } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../../../test/support/pg.ts';
import { type StartedGateway, startGateway } from '../../../../test/support/start-gateway.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';
import { formatAtOffset } from '../../src/changes/rfc3339.ts';
import { DEMO_POLICY_DIR } from '../../src/demo-policies.ts';

const havePostgres = await postgresAvailable();
const STORES = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
] as const;

const RIVERA: Principal = {
  subject: 'eng.rivera',
  tenant: 'acme',
  actor: 'support_agent',
  scopes: new Set(['changes:read', 'cmdb:read', 'changes:create', 'changes:create:production']),
  groups: ['team-discovery', 'team-payments', 'team-storefront'],
};

const START = formatAtOffset(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000, 0);

function stagingChange(key: string): Record<string, unknown> {
  return {
    service_id: 'checkout-web',
    environment: 'staging',
    summary: 'Raise the client timeout of checkout to eight seconds',
    implementation_plan: 'Change the timeout in the config repository, deploy with the standard pipeline.',
    rollback_plan: 'Revert the config commit and redeploy the previous release with the standard pipeline.',
    start_time: START,
    duration_minutes: 60,
    risk: 'low',
    dry_run: false,
    idempotency_key: key,
  };
}

async function checkoutRecords(db: SqlDatabase): Promise<number> {
  const [row] = await db.query<{ n: number | string }>(
    "SELECT COUNT(*) AS n FROM ext_change_records WHERE service_id = 'checkout-web'",
  );
  return Number(row?.n);
}

for (const store of STORES) {
  describe.skipIf(store.postgres && !havePostgres)(`a changed policy set (${store.name})`, () => {
    let dir: string;
    let scratch: ScratchDatabase | undefined;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'toolgate-policy-version-'));
      scratch = store.postgres ? await createScratchDatabase() : undefined;
    });
    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await scratch?.drop();
    });

    const open = async (policyDir: string) => {
      const app = await createApp({
        dataDir: join(dir, 'data'),
        ...(scratch ? { databaseUrl: scratch.url } : {}),
        logger: pino({ level: 'silent' }),
        modules: [changesDomain],
        backgroundJobs: false,
        policyDir,
      });
      await simulationOf(app).seed();
      return app;
    };

    it('shows its new version in the audit, and still replays what the old one let execute', async () => {
      const first = await open(DEMO_POLICY_DIR);
      const key = `policy-version-replay-${process.pid}`.padEnd(24, '0');
      const created = (
        await first.gateway.call({ name: 'change_create', arguments: stagingChange(key) }, RIVERA)
      ).envelope;
      expect(created.status).toBe('completed');
      const oldVersion = first.gateway.policyVersion!;
      const records = await checkoutRecords(first.db);
      await first.close();

      // The same policies, with change_create forbidden outright.
      const changed = join(dir, 'changed');
      cpSync(DEMO_POLICY_DIR, changed, { recursive: true });
      writeFileSync(
        join(changed, 'freeze.cedar'),
        '@id("changes-frozen")\n@reason("Changes are frozen.")\nforbid (principal, action == Action::"change_create", resource);\n',
      );
      const second = await open(changed);
      try {
        const newVersion = second.gateway.policyVersion!;
        expect(newVersion).not.toBe(oldVersion);
        const replayed = (
          await second.gateway.call({ name: 'change_create', arguments: stagingChange(key) }, RIVERA)
        ).envelope;
        expect(replayed).toMatchObject({
          status: 'completed',
          replayed: true,
          operation_id: created.operation_id,
        });
        const fresh = (
          await second.gateway.call({ name: 'change_create', arguments: stagingChange(`${key}-new`) }, RIVERA)
        ).envelope;
        expect(fresh).toMatchObject({
          status: 'failed',
          code: 'POLICY_DENIED',
          message: 'Changes are frozen.',
        });
        expect(await checkoutRecords(second.db)).toBe(records);
        const audit = await second.operations.audit.list({
          tenant: 'acme',
          subject: 'eng.rivera',
          limit: 50,
        });
        expect(audit.map((e) => [e.code, e.replayed, e.policy_version])).toEqual([
          [null, false, oldVersion],
          [null, true, newVersion],
          ['POLICY_DENIED', false, newVersion],
        ]);
      } finally {
        await second.close();
      }
    });
  });
}

describe('tools/list under a policy set', () => {
  let gateway: StartedGateway;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolgate-policy-listing-'));
    cpSync(DEMO_POLICY_DIR, dir, { recursive: true });
    // Only the release managers may create changes at all.
    writeFileSync(
      join(dir, 'changes.cedar'),
      'permit (principal in Group::"release-managers", action == Action::"change_create", resource is Service);\n',
    );
    gateway = await startGateway({ modules: [changesDomain], app: { policyDir: dir } });
  });
  afterAll(async () => {
    await gateway?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const listed = async (groups: string[], sub = `eng.${groups.join('-') || 'none'}`) => {
    const client = await gateway.client({
      sub,
      tenant: 'acme',
      actor: 'support_agent',
      scopes: ['changes:read', 'cmdb:read', 'changes:create'],
      groups,
    });
    return (await client.listTools()).tools.map((t) => t.name).sort();
  };

  it('hides the tools no policy could permit this principal, per principal', async () => {
    expect(await listed([])).toEqual(['change_get', 'change_search', 'cmdb_service_resolve']);
    expect(await listed(['release-managers'])).toEqual([
      'change_create',
      'change_get',
      'change_search',
      'cmdb_service_resolve',
    ]);
    // The first listing is not served to a principal of another class from the cache, nor the reverse.
    expect(await listed([])).toEqual(['change_get', 'change_search', 'cmdb_service_resolve']);
  });

  it('keys the cache by each group apart: two groups are not one group whose name holds a space', async () => {
    const both = await listed(['release-managers', 'sre'], 'eng.same');
    expect(both).toContain('change_create');
    expect(await listed(['release-managers sre'], 'eng.same')).not.toContain('change_create');
  });
});
