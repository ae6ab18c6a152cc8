import type { PolicyException, Principal } from 'toolgate';
import { describe, expect, it } from 'vitest';
import { callAccepted } from '../../../../test/support/person-confirms.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { CreationClaims } from '../../src/changes/change-create-claims.ts';
import type { PreparedChange } from '../../src/changes/change-creation.ts';
import { formatAtOffset } from '../../src/changes/rfc3339.ts';
import {
  allPlatformRecords,
  demoPrincipal,
  engineer,
  platformEffects,
  productionRequest,
  useChangesApp,
} from './changes-harness.ts';

const approver = demoPrincipal('changes_approver');
const H = 3_600_000;

/**
 * A production change outside its service's windows goes ahead only under a maintenance-window
 * exception granted by someone other than its requester, still in force when the change is decided.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`change_create under a window exception (${target.dialect})`, () => {
    const changes = useChangesApp(target);
    const app = () => changes.app;

    /** A production request of payments-api an hour after its next window closed (outside any window). */
    function outsideRequest() {
      const request = productionRequest(app(), { dry_run: false });
      const windowStart = Date.parse(String(request.start_time)) - 30 * 60_000;
      const startAt = windowStart + 5 * H;
      return { request: { ...request, start_time: formatAtOffset(startAt, -300) }, startAt };
    }

    function grant(by: Principal, startAt: number): Promise<PolicyException> {
      return app().operations.exceptions.grant(by, {
        kind: 'maintenance_window',
        target: { environment: 'production', service_id: 'payments-api' },
        starts_at: startAt - H,
        ends_at: startAt + 2 * H,
        reason: 'Card network certificate rotation agreed with the vendor',
      });
    }

    const created = async () => (await allPlatformRecords(app())).slice(changes.seeded);
    const auditOf = (action: string) =>
      app().db.query<{ subject: string; operation_id: string | null; detail: string }>(
        'SELECT subject, operation_id, detail FROM audit_log WHERE action = ? ORDER BY seq',
        [action],
      );

    async function expectNothingCreated() {
      expect(await created()).toEqual([]);
      expect(await platformEffects(app())).toEqual([]);
      expect(await auditOf('exception_applied')).toEqual([]);
    }

    it('without an exception: refused, nothing created', async () => {
      const { request } = outsideRequest();
      const answer = await callAccepted(app(), engineer, 'change_create', request);
      expect(answer).toMatchObject({
        status: 'rejected',
        code: 'MAINTENANCE_WINDOW_REQUIRED',
        field_errors: [{ field: 'start_time', code: 'OUTSIDE_APPROVED_WINDOW' }],
      });
      expect(answer.resolution).toContain('changes:approve');
      await expectNothingCreated();
    });

    it("under another approver's exception: created once, the result and the audit name it", async () => {
      const { request, startAt } = outsideRequest();
      const exception = await grant(approver, startAt);
      const dryRun = await callAccepted(app(), engineer, 'change_create', { ...request, dry_run: true });
      expect(dryRun).toMatchObject({
        status: 'validated',
        result: {
          maintenance_exception: { exception_id: exception.exception_id, granted_by: 'appr.chen' },
        },
      });
      const answer = await callAccepted(app(), engineer, 'change_create', request);
      expect(answer).toMatchObject({
        status: 'completed',
        result: {
          created: true,
          maintenance_exception: { exception_id: exception.exception_id, granted_by: 'appr.chen' },
        },
      });
      expect(answer.warnings).toContainEqual({
        code: 'MAINTENANCE_WINDOW_EXCEPTION',
        message: expect.stringContaining(`exception ${exception.exception_id}, granted by appr.chen`),
      });
      const again = await callAccepted(app(), engineer, 'change_create', request);
      expect(again).toMatchObject({
        status: 'completed',
        replayed: true,
        result: { ...answer.result, replayed: true },
      });
      const records = await created();
      expect(records).toEqual([
        { change_id: answer.result!.change_id, state: 'pending_approval', operation_id: answer.operation_id },
      ]);
      const effects = await platformEffects(app(), answer.operation_id!);
      expect(effects.map((e) => e.action)).toEqual([
        'create_record',
        'attach_implementation_plan',
        'attach_rollback_plan',
        'request_approval',
      ]);
      const applied = await auditOf('exception_applied');
      expect(applied).toHaveLength(1);
      expect(applied[0]).toMatchObject({ subject: engineer.subject, operation_id: answer.operation_id });
      expect(JSON.parse(applied[0]!.detail)).toMatchObject({
        exception_id: exception.exception_id,
        granted_by: 'appr.chen',
        service_id: 'payments-api',
        environment: 'production',
      });
    });

    it('under an exception the requester granted: refused, and the refusal says why', async () => {
      const { request, startAt } = outsideRequest();
      const own = await grant(engineer, startAt);
      const answer = await callAccepted(app(), engineer, 'change_create', request);
      expect(answer).toMatchObject({
        status: 'rejected',
        code: 'MAINTENANCE_WINDOW_REQUIRED',
        field_errors: [
          { field: 'start_time', code: 'OUTSIDE_APPROVED_WINDOW' },
          { field: 'start_time', code: 'EXCEPTION_GRANTED_BY_REQUESTER' },
        ],
      });
      expect(answer.message).toContain('granted by the requester');
      expect(answer.resolution).toContain(`Exception ${own.exception_id}`);
      await expectNothingCreated();
    });

    it('after the exception is revoked: refused, nothing created', async () => {
      const { request, startAt } = outsideRequest();
      const exception = await grant(approver, startAt);
      const revoked = await app().operations.exceptions.revoke(approver, exception.exception_id);
      expect(revoked.kind).toBe('revoked');
      const answer = await callAccepted(app(), engineer, 'change_create', request);
      expect(answer).toMatchObject({ status: 'rejected', code: 'MAINTENANCE_WINDOW_REQUIRED' });
      await expectNothingCreated();
    });

    it('an exception for another start or service does not apply', async () => {
      const { request, startAt } = outsideRequest();
      await grant(approver, startAt + 6 * H);
      await app().operations.exceptions.grant(approver, {
        kind: 'maintenance_window',
        target: { environment: 'production', service_id: 'checkout-web' },
        starts_at: startAt - H,
        ends_at: startAt + H,
        reason: 'Storefront release train moved by the retail team',
      });
      const answer = await callAccepted(app(), engineer, 'change_create', request);
      expect(answer).toMatchObject({ status: 'rejected', code: 'MAINTENANCE_WINDOW_REQUIRED' });
      await expectNothingCreated();
    });

    it('a revoke that commits after the review but before the write refuses the change', async () => {
      const { startAt } = outsideRequest();
      const exception = await grant(approver, startAt);
      const review = await callAccepted(app(), engineer, 'change_create', {
        ...outsideRequest().request,
        dry_run: true,
      });
      expect(review.status).toBe('validated');
      await app().operations.exceptions.revoke(approver, exception.exception_id);
      const claims = new CreationClaims(app().db, app().clock, app().operations.exceptions);
      const prepared: PreparedChange = {
        draft: {
          tenant: 'acme',
          requested_by: engineer.subject,
          service_id: 'payments-api',
          environment: 'production',
          summary: 'Rotate the card network client certificate',
          start_time: new Date(startAt).toISOString(),
          start_at: startAt,
          duration_minutes: 60,
          requested_risk: 'medium',
          effective_risk: 'high',
          approval_required: true,
          approval_group: 'production-change-approvers',
        },
        implementation_plan: 'Install the new certificate and restart the gateway pods one at a time.',
        rollback_plan: 'Reinstall the previous certificate if handshakes fail for two minutes.',
        warnings: [],
        exception: { exception_id: exception.exception_id, granted_by: 'appr.chen' },
      };
      const claim = await claims.claim(engineer, 'op_01KBA00000000000000000RACE', prepared, false);
      expect(claim).toEqual({ kind: 'exception_withdrawn', exceptionId: exception.exception_id });
      expect(await app().db.query('SELECT operation_id FROM changes_create_claims')).toEqual([]);
      await expectNothingCreated();
    });
  });
}
