import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulationOf } from '@toolgate/simulation';
import { pino } from 'pino';
import { type App, createApp, ShiftableClock } from 'toolgate/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAST_TUNING } from '../../../../test/operations/harness.ts';
import { callAccepted } from '../../../../test/support/person-confirms.ts';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';
import { formatAtOffset } from '../../src/changes/rfc3339.ts';
import { DEMO_POLICY_DIR } from '../../src/demo-policies.ts';
import {
  allPlatformRecords,
  demoPrincipal,
  engineer,
  productionRequest,
} from '../changes/changes-harness.ts';

const H = 3_600_000;
const approver = demoPrincipal('changes_approver');

/**
 * A team's policy that reads the facts the changes domain supplies: here every production change needs
 * a maintenance-window exception in force, whatever the window (stricter than the demo).
 */
const EXCEPTION_POLICY = `@id("production-only-under-exception")
@reason("Production changes need a maintenance-window exception in force for their start.")
forbid (principal, action == Action::"change_create", resource is Service)
when {
  context.input.environment == "production" &&
  context.facts.exceptions.isEmpty()
};
`;

function policyDirWithExceptionRule(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-policy-facts-'));
  for (const name of readdirSync(DEMO_POLICY_DIR)) {
    if (name.endsWith('.cedar') || name.endsWith('.cedarschema')) {
      cpSync(join(DEMO_POLICY_DIR, name), join(dir, name));
    }
  }
  writeFileSync(join(dir, 'exceptions.cedar'), EXCEPTION_POLICY);
  return dir;
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`policies read the active exceptions (${target.dialect})`, () => {
    let location: StoreLocation | undefined;
    let app: App;
    let seeded = 0;
    const policyDir = policyDirWithExceptionRule();

    beforeAll(async () => {
      location = await target.create();
      app = await createApp({
        ...location.config,
        logger: pino({ level: 'silent' }),
        modules: [changesDomain],
        backgroundJobs: false,
        clock: new ShiftableClock(),
        operations: FAST_TUNING,
        policyDir,
      });
      await simulationOf(app).seed();
      seeded = (await allPlatformRecords(app)).length;
    });
    afterEach(async () => simulationOf(app).resetWorld());
    afterAll(async () => {
      await app?.close();
      await location?.dispose();
      rmSync(policyDir, { recursive: true, force: true });
    });

    /** A production change inside the service's next window: the service itself would accept it. */
    function insideWindow() {
      const request = productionRequest(app, { dry_run: false });
      return { request, startAt: Date.parse(String(request.start_time)) };
    }
    const created = async () => (await allPlatformRecords(app)).slice(seeded);

    it('denies by policy when no exception is in force, and creates nothing', async () => {
      const { request } = insideWindow();
      const answer = await callAccepted(app, engineer, 'change_create', request);
      expect(answer).toMatchObject({ status: 'failed', code: 'POLICY_DENIED', operation_id: null });
      expect(answer.message).toBe(
        'Production changes need a maintenance-window exception in force for their start.',
      );
      expect(answer.resolution).toContain('production-only-under-exception');
      expect(await created()).toEqual([]);
      const operations = await app.db.query('SELECT id FROM operations WHERE tool = ?', ['change_create']);
      expect(operations).toEqual([]);
    });

    it('permits once a person granted an exception for that start, and the change is created once', async () => {
      const { request, startAt } = insideWindow();
      await app.operations.exceptions.grant(approver, {
        kind: 'maintenance_window',
        target: { environment: 'production', service_id: 'payments-api' },
        starts_at: startAt - H,
        ends_at: startAt + H,
        reason: 'Certificate rotation agreed with the card network',
      });
      const answer = await callAccepted(app, engineer, 'change_create', request);
      expect(answer).toMatchObject({ status: 'completed', result: { created: true } });
      expect(await created()).toHaveLength(1);
    });

    it('an exception for another start is not in force for this one', async () => {
      const { request, startAt } = insideWindow();
      await app.operations.exceptions.grant(approver, {
        kind: 'maintenance_window',
        target: { environment: 'production', service_id: 'payments-api' },
        starts_at: startAt + 2 * H,
        ends_at: startAt + 3 * H,
        reason: 'A later rotation window agreed with the card network',
      });
      const answer = await callAccepted(app, engineer, 'change_create', {
        ...request,
        start_time: formatAtOffset(startAt, 0),
      });
      expect(answer).toMatchObject({ status: 'failed', code: 'POLICY_DENIED' });
      expect(await created()).toEqual([]);
    });
  });
}
