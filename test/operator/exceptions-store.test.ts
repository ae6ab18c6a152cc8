import type { Principal } from 'toolgate';
import { describe, expect, it } from 'vitest';
import { changesDomain } from '../../packages/domains/src/changes/changes-module.ts';
import {
  activeExceptions,
  type ExceptionQuery,
} from '../../packages/toolgate/src/operations/policy-exceptions.ts';
import { gatewayOnStore } from '../support/store-gateway.ts';
import { storeTargets } from '../support/store-targets.ts';

const H = 3_600_000;
const approver: Principal = {
  subject: 'appr.chen',
  tenant: 'acme',
  actor: 'operator',
  scopes: new Set(['changes:approve']),
};
const requester: Principal = {
  subject: 'eng.rivera',
  tenant: 'acme',
  actor: 'support_agent',
  scopes: new Set(['changes:create']),
};

/** The exceptions store on both databases: which exceptions are in force, and what a use confirms. */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`the exceptions store on ${target.dialect}`, () => {
    const suite = gatewayOnStore(target, { modules: [changesDomain] });
    const exceptions = () => suite.gw.app.operations.exceptions;
    const T = Date.UTC(2030, 0, 5, 12);
    const query = (overrides: Partial<ExceptionQuery> = {}): ExceptionQuery => ({
      tenant: 'acme',
      kind: 'maintenance_window',
      target: { environment: 'production', service_id: 'payments-api' },
      at: T,
      ...overrides,
    });
    const grant = (by: Principal = approver) =>
      exceptions().grant(by, {
        kind: 'maintenance_window',
        target: { environment: 'production', service_id: 'payments-api' },
        starts_at: T,
        ends_at: T + 2 * H,
        reason: 'Vendor certificate rotation',
      });

    it('holds from its start (inclusive) to its end (exclusive), for its tenant, service and environment only', async () => {
      const granted = await grant();
      const ids = async (q: ExceptionQuery) =>
        (await activeExceptions(suite.gw.app.db, q)).map((e) => e.exception_id);
      expect(await ids(query())).toEqual([granted.exception_id]);
      expect(await ids(query({ at: T + 2 * H - 1 }))).toEqual([granted.exception_id]);
      expect(await ids(query({ at: T - 1 }))).toEqual([]);
      expect(await ids(query({ at: T + 2 * H }))).toEqual([]);
      expect(await ids(query({ tenant: 'globex' }))).toEqual([]);
      expect(await ids(query({ target: { environment: 'production', service_id: 'checkout-web' } }))).toEqual(
        [],
      );
      expect(await ids(query({ target: { environment: 'staging', service_id: 'payments-api' } }))).toEqual(
        [],
      );
      await exceptions().revoke(approver, granted.exception_id);
      expect(await ids(query())).toEqual([]);
      expect(await exceptions().find('acme', granted.exception_id)).toMatchObject({
        revoked_by: 'appr.chen',
      });
      expect(await exceptions().find('globex', granted.exception_id)).toBeNull();
    });

    it("confirms a use in the caller's transaction, audited with it; never the grantor's own, never a revoked one", async () => {
      const granted = await grant();
      const own = await grant(requester);
      const use = (exceptionId: string) => ({
        exceptionId,
        query: query(),
        operationId: 'op_01KBA0000000000000000000US',
        principal: requester,
        tool: 'change_create',
      });
      const applied = await suite.gw.app.db.transaction((tx) =>
        exceptions().confirmUse(tx, use(granted.exception_id)),
      );
      expect(applied).toMatchObject({ exception_id: granted.exception_id, granted_by: 'appr.chen' });
      expect(
        await suite.gw.app.db.transaction((tx) => exceptions().confirmUse(tx, use(own.exception_id))),
      ).toBeNull();
      // A use whose transaction rolls back leaves no audit entry.
      await expect(
        suite.gw.app.db.transaction(async (tx) => {
          await exceptions().confirmUse(tx, use(granted.exception_id));
          throw new Error('the write failed');
        }),
      ).rejects.toThrow('the write failed');
      await exceptions().revoke(approver, granted.exception_id);
      expect(
        await suite.gw.app.db.transaction((tx) => exceptions().confirmUse(tx, use(granted.exception_id))),
      ).toBeNull();
      const entries = await suite.gw.app.db.query<{ action: string; subject: string; operation_id: string }>(
        "SELECT action, subject, operation_id FROM audit_log WHERE action LIKE 'exception_%' ORDER BY seq",
      );
      expect(entries.map((e) => [e.action, e.subject])).toEqual([
        ['exception_grant', 'appr.chen'],
        ['exception_grant', 'eng.rivera'],
        ['exception_applied', 'eng.rivera'],
        ['exception_revoke', 'appr.chen'],
      ]);
    });
  });
}
