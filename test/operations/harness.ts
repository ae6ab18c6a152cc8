import { simulationWorld } from '@toolgate/simulation';
import { pino } from 'pino';
import type { OperationsTuning, OutcomeEnvelope, Principal } from 'toolgate';
import { type App, type AppConfig, createApp, ShiftableClock } from 'toolgate/server';
import type { DatabaseConfig } from '../../packages/toolgate/src/store/open-database.ts';
import type { StoreTarget } from '../support/store-targets.ts';
import { type TestDomainOptions, testDomain } from '../support/test-domain.ts';

/** Timings that let leases expire and reconciliation run within a test. */
export const FAST_TUNING: Partial<OperationsTuning> = {
  joinWaitMs: 3_000,
  leaseGraceMs: 100,
  reconcileIntervalMs: 20,
  reconcileBackoffMs: 10,
  reconcileBackoffMaxMs: 50,
  reconcileMaxAttempts: 3,
  claimMs: 5_000,
};

export interface TestAppOptions {
  readonly domain?: TestDomainOptions;
  readonly tuning?: Partial<OperationsTuning>;
  readonly backgroundJobs?: boolean;
  readonly retentionSeconds?: number;
}

export async function startTestApp(
  config: DatabaseConfig,
  options: TestAppOptions = {},
): Promise<App & { clock: ShiftableClock }> {
  const clock = new ShiftableClock();
  const app = await createApp({
    ...config,
    logger: pino({ level: 'silent' }),
    modules: [testDomain(options.domain)],
    backgroundJobs: options.backgroundJobs ?? false,
    retentionSeconds: options.retentionSeconds,
    clock,
    operations: { ...FAST_TUNING, ...options.tuning },
  });
  return Object.assign(app, { clock });
}

/** An app on a store of its own, and how to close it and remove the store. */
export interface AppOnStore {
  readonly app: App;
  dispose(): Promise<void>;
}

/**
 * An app over these modules and settings on a fresh store of the target: a silent log, no demo world,
 * background jobs off unless the settings turn them on.
 */
export async function appOnStore(
  target: StoreTarget,
  config: Omit<AppConfig, keyof DatabaseConfig | 'logger' | 'seed'>,
): Promise<AppOnStore> {
  const location = await target.create();
  try {
    const app = await createApp({
      ...location.config,
      logger: pino({ level: 'silent' }),
      backgroundJobs: false,
      ...config,
    });
    return {
      app,
      async dispose() {
        await app.close();
        await location.dispose();
      },
    };
  } catch (error) {
    await location.dispose();
    throw error;
  }
}

let keySeq = 0;
/** A fresh valid idempotency key. */
export function newKey(label = 'k'): string {
  keySeq += 1;
  return `${label}-${process.pid}-${Date.now()}-${keySeq}`.padEnd(16, '0');
}

export function call(
  app: App,
  principal: Principal,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<OutcomeEnvelope> {
  return app.gateway
    .call({ name, arguments: args, _meta: meta }, principal)
    .then((answer) => answer.envelope);
}

export function credit(
  app: App,
  principal: Principal,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<OutcomeEnvelope> {
  return call(app, principal, 'testing_credit_account', args, meta);
}

/** Effects the test bank applied, as the ledger records them. */
export async function bankEffects(app: App) {
  return simulationWorld(app.db).ledger.list({ system: 'test_bank' });
}
