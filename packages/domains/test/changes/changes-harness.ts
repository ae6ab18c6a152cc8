import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { pino } from 'pino';
import type { OutcomeEnvelope, Principal } from 'toolgate';
import { type App, createApp, ShiftableClock } from 'toolgate/server';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { FAST_TUNING } from '../../../../test/operations/harness.ts';
import type { StoreLocation, StoreTarget } from '../../../../test/support/store-targets.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';
import { changesPrincipals, demoServices } from '../../src/changes/demo-catalog.ts';
import { nextWindow } from '../../src/changes/maintenance-windows.ts';
import { formatAtOffset } from '../../src/changes/rfc3339.ts';
import { demoPrincipalNamed } from '../demo-principal.ts';

export type ChangesApp = App & { clock: ShiftableClock };

/** The changes app of one store for the tests of a describe block, and how many platform records it was seeded with. */
export interface ChangesFixture {
  readonly app: ChangesApp;
  readonly seeded: number;
}

/**
 * Starts the changes app on the target store before the block's tests, resets its world after each
 * test and closes it (and drops the store) after all of them.
 */
export function useChangesApp(target: StoreTarget): ChangesFixture {
  const fixture = {} as { app: ChangesApp; seeded: number };
  let location: StoreLocation | undefined;
  beforeAll(async () => {
    location = await target.create();
    fixture.app = await startChangesApp(location.config);
    fixture.seeded = (await allPlatformRecords(fixture.app)).length;
  });
  afterEach(async () => {
    await simulationOf(fixture.app).resetWorld();
  });
  afterAll(async () => {
    await fixture.app?.close();
    await location?.dispose();
  });
  return fixture;
}

/** A gateway serving only the changes domain, demo world seeded, background jobs off. */
export async function startChangesApp(config: StoreLocation['config']): Promise<ChangesApp> {
  const clock = new ShiftableClock();
  const app = await createApp({
    ...config,
    logger: pino({ level: 'silent' }),
    modules: [changesDomain],
    backgroundJobs: false,
    clock,
    operations: FAST_TUNING,
  });
  await simulationOf(app).seed();
  return Object.assign(app, { clock });
}

export function demoPrincipal(name: string): Principal {
  return demoPrincipalNamed(changesPrincipals, name);
}

export const engineer = demoPrincipal('changes_engineer');
export const nonProdEngineer = demoPrincipal('changes_engineer_nonprod');
export const otherTenantEngineer = demoPrincipal('changes_other_tenant');

export function call(
  app: App,
  principal: Principal,
  name: string,
  args: Record<string, unknown>,
): Promise<OutcomeEnvelope> {
  return app.gateway.call({ name, arguments: args }, principal).then((answer) => answer.envelope);
}

/** Start of the next production window of a demo service (at least an hour from now). */
export function nextProductionWindow(app: App, serviceId: string): number {
  const rules = demoServices.find((d) => d.service.serviceId === serviceId)!.windows[0]!.rules;
  return nextWindow(rules, app.clock.now() + 3_600_000, 60)!.startAt;
}

let keySeq = 0;
export function newKey(label = 'chg'): string {
  keySeq += 1;
  return `${label}-${process.pid}-${Date.now()}-${keySeq}`.padEnd(16, '0');
}

/** A valid production change of payments-api 30 minutes into its next window, written at -05:00. */
export function productionRequest(
  app: App,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    service_id: 'payments-api',
    environment: 'production',
    summary: 'Deploy payment timeout configuration update',
    implementation_plan:
      'Validate current values, apply the approved configuration package, restart one instance at a time, and verify transaction health after each instance.',
    rollback_plan:
      'Rollback if error rate exceeds the approved threshold for five minutes. Restore the previous configuration package and restart affected instances sequentially.',
    start_time: formatAtOffset(nextProductionWindow(app, 'payments-api') + 30 * 60_000, -300),
    duration_minutes: 60,
    risk: 'medium',
    idempotency_key: newKey(),
    ...overrides,
  };
}

/** A valid test-environment change (no window, no approval needed at low risk). */
export function testEnvironmentRequest(app: App, overrides: Record<string, unknown> = {}) {
  return productionRequest(app, {
    environment: 'test',
    service_id: 'checkout-web',
    summary: 'Enable new checkout layout in test',
    start_time: new Date(app.clock.now() + 2 * 3_600_000).toISOString(),
    risk: 'low',
    ...overrides,
  });
}

/** Platform records of a tenant in any state, drafts included (what no tool shows). */
export async function allPlatformRecords(app: App, tenant = 'acme') {
  return app.db.query<{ change_id: string; state: string; operation_id: string | null }>(
    'SELECT change_id, state, operation_id FROM ext_change_records WHERE tenant = ? ORDER BY change_number',
    [tenant],
  );
}

export async function platformEffects(app: App, requestId?: string) {
  return simulationWorld(app.db).ledger.list({
    system: 'change_platform',
    ...(requestId ? { requestId } : {}),
  });
}
