import type { Effect } from '@toolgate/simulation';
import { simulationOf, simulationWorld } from '@toolgate/simulation';
import { pino } from 'pino';
import type { OutcomeEnvelope, Principal } from 'toolgate';
import { type App, createApp, ShiftableClock } from 'toolgate/server';
import { callAsPerson } from '../../../../test/support/person-confirms.ts';
import type { StoreTarget } from '../../../../test/support/store-targets.ts';
import { workitemsDomain } from '../../src/workitems/workitems-module.ts';
import { demoPrincipalNamed } from '../demo-principal.ts';

/** The workitems domain served in-process by a complete app (operations included), on one store. */
export interface WorkitemsHarness {
  readonly app: App;
  readonly clock: ShiftableClock;
  /** One tools/call as a demo principal (by name) or explicit principal. */
  call(
    who: string | Principal,
    tool: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<OutcomeEnvelope>;
  /** workitems_commit from a client whose user accepts what they are asked (every commit asks). */
  commit(
    who: string | Principal,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<OutcomeEnvelope>;
  /** Tracker items created through the tracker API, from the effects ledger. */
  trackerCreates(): Promise<Effect[]>;
  rows<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

let keySeq = 0;
/** A fresh idempotency key. */
export function newKey(label = 'k'): string {
  keySeq += 1;
  return `${label}-${Date.now().toString(36)}-${keySeq.toString().padStart(6, '0')}`;
}

export async function startWorkitems(target: StoreTarget): Promise<WorkitemsHarness> {
  const location = await target.create();
  const clock = new ShiftableClock();
  const app = await createApp({
    ...location.config,
    logger: pino({ level: process.env.TOOLGATE_TEST_LOG_LEVEL ?? 'silent' }),
    modules: [workitemsDomain],
    backgroundJobs: false,
    clock,
  });
  await simulationOf(app).seed();
  const principalOf = (who: string | Principal) => demoPrincipalNamed(simulationOf(app).principals, who);
  return {
    app,
    clock,
    call: (who, tool, args, signal) =>
      app.gateway
        .call({ name: tool, arguments: args }, principalOf(who), signal)
        .then((answer) => answer.envelope),
    commit: async (who, args, signal) =>
      (await callAsPerson(app, principalOf(who), 'workitems_commit', args, { action: 'accept' }, signal))
        .envelope,
    trackerCreates: () => simulationWorld(app.db).ledger.list({ system: 'tracker', action: 'create_item' }),
    rows: (sql, params = []) => app.db.query(sql, params),
    async close() {
      await app.close();
      await location.dispose();
    },
  };
}
