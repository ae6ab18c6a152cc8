import type { Clock } from 'toolgate';
import { z } from 'zod';
import { demoServices } from './demo-catalog.ts';
import { describeWindow, nextWindow } from './maintenance-windows.ts';
import { approvalFor, assessRisk } from './risk-policy.ts';
import type { ServiceCatalog } from './service-catalog.ts';
import type { ChangeFreeze } from './systems/change-platform/change-freeze-calendar.ts';
import type { ChangePlatform } from './systems/change-platform/change-platform.ts';
import type { ChangePlatformWorld } from './systems/change-platform/change-platform-world.ts';
import type { Environment, Risk } from './systems/change-platform/change-record.ts';

const HOUR_MS = 3_600_000;
const DEMO_TENANTS = ['acme', 'globex'];

export interface ChangesWorldDeps {
  readonly catalog: ServiceCatalog;
  readonly platform: ChangePlatform;
  readonly world: ChangePlatformWorld;
  readonly clock: Clock;
}

interface DemoChange {
  readonly tenant: string;
  readonly requestedBy: string;
  readonly serviceId: string;
  readonly environment: Environment;
  readonly summary: string;
  readonly risk: Risk;
  readonly state: 'pending_approval' | 'scheduled';
}

const demoChanges: readonly DemoChange[] = [
  change(
    'acme',
    'eng.rivera',
    'payments-api',
    'production',
    'Rotate payments API TLS certificates',
    'medium',
    'scheduled',
  ),
  change(
    'acme',
    'eng.rivera',
    'ledger-db',
    'production',
    'Apply ledger database minor version upgrade',
    'high',
    'pending_approval',
  ),
  change(
    'acme',
    'eng.okafor',
    'checkout-web',
    'staging',
    'Enable the new checkout layout in staging',
    'low',
    'scheduled',
  ),
  change(
    'globex',
    'eng.lindqvist',
    'storefront-api',
    'production',
    'Raise storefront API connection pool size',
    'medium',
    'pending_approval',
  ),
];

/** Lays out the demo catalogs and a few existing changes, each in its service's next window. */
export async function seedChangesWorld({ catalog, world, clock }: ChangesWorldDeps): Promise<void> {
  for (const { service, windows } of demoServices) await catalog.add(service, windows);
  for (const demo of demoChanges) {
    const entry = demoServices.find((d) => d.service.serviceId === demo.serviceId)!;
    const rules = entry.windows.find((w) => w.environment === demo.environment)?.rules ?? [];
    const startAt =
      nextWindow(rules, clock.now() + 24 * HOUR_MS, 60)?.startAt ??
      Math.ceil((clock.now() + 48 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const risk = assessRisk(demo.risk, entry.service.criticality, demo.environment, 60);
    const approval = approvalFor(demo.environment, risk.effective, entry.service.ownerGroup);
    await world.seedChange(
      {
        tenant: demo.tenant,
        requested_by: demo.requestedBy,
        service_id: demo.serviceId,
        environment: demo.environment,
        summary: demo.summary,
        start_time: new Date(startAt).toISOString().replace('.000Z', 'Z'),
        start_at: startAt,
        duration_minutes: 60,
        requested_risk: demo.risk,
        effective_risk: risk.effective,
        approval_required: approval.required,
        approval_group: approval.group,
      },
      demo.state,
      {
        implementation: `Announce the start in the service channel, then: ${demo.summary.toLowerCase()}, verifying health checks after each step.`,
        rollback:
          'Roll back if health checks fail for five minutes: restore the previous version and verify recovery.',
      },
    );
  }
}

/** Demo ids by role for GET /test-api/fixtures, with windows computed from the current clock. */
export async function changesFixtures({
  platform,
  clock,
}: ChangesWorldDeps): Promise<Record<string, unknown>> {
  const changes: Record<string, unknown>[] = [];
  const freezes: Record<string, unknown> = {};
  for (const tenant of DEMO_TENANTS) {
    const page = await platform.records.search({ tenant, limit: 50 });
    for (const r of page.records) {
      changes.push({
        tenant,
        change_id: r.change_id,
        service_id: r.service_id,
        environment: r.environment,
        state: r.state,
      });
    }
    const freeze = await platform.freezes.current(tenant);
    freezes[tenant] = freeze ? freezeView(freeze) : null;
  }
  return {
    changes: {
      services: demoServices.map(({ service, windows }) => {
        const rules = windows.find((w) => w.environment === 'production')?.rules ?? [];
        const next = nextWindow(rules, clock.now() + HOUR_MS, 60);
        return {
          tenant: service.tenant,
          service_id: service.serviceId,
          name: service.name,
          owner_group: service.ownerGroup,
          criticality: service.criticality,
          status: service.status,
          production_windows: rules.map(describeWindow),
          next_production_window: next
            ? { starts_at: new Date(next.startAt).toISOString(), ends_at: new Date(next.endAt).toISOString() }
            : null,
        };
      }),
      changes,
      freeze_by_tenant: freezes,
    },
  };
}

const decideApprovalParams = z.strictObject({
  change_id: z.string().regex(/^CHG-[0-9]{5,9}$/),
  decision: z.enum(['approve', 'decline']),
});

/**
 * POST /test-api/simulate for target change_platform. Unknown actions answer null (the test API's 404),
 * refusals `{applied: false, reason}`; params that do not parse throw a ZodError (the test API's 400).
 */
export async function simulateChangePlatform(
  { platform, world }: ChangesWorldDeps,
  action: string,
  params: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  switch (action) {
    case 'set_freeze':
      return { freeze: freezeView(await platform.freezes.set(params)) };
    case 'clear_freeze':
      return { cleared: await platform.freezes.clear() };
    case 'decide_approval': {
      const { change_id, decision } = decideApprovalParams.parse(params);
      const state = await world.decideApproval(change_id, decision === 'approve');
      if (!state) return { applied: false, reason: `change ${change_id} is not pending approval` };
      return { change_id, state };
    }
    default:
      return null;
  }
}

function freezeView(freeze: ChangeFreeze): Record<string, unknown> {
  return {
    starts_at: new Date(freeze.startsAt).toISOString(),
    ends_at: new Date(freeze.endsAt).toISOString(),
    environments: freeze.environments,
    reason: freeze.reason,
    tenant: freeze.tenant,
  };
}

function change(
  ...[tenant, requestedBy, serviceId, environment, summary, risk, state]: [
    string,
    string,
    string,
    Environment,
    string,
    Risk,
    DemoChange['state'],
  ]
): DemoChange {
  return { tenant, requestedBy, serviceId, environment, summary, risk, state };
}
