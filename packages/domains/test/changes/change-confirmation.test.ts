import type { OutcomeEnvelope } from 'toolgate';
import { confirmingClient, type ScriptedAnswer } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { accepted, askingCall, askThenRun } from '../../../../test/support/person-confirms.ts';
import { gatewayOnStore } from '../../../../test/support/store-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { changesDomain } from '../../src/changes/changes-module.ts';
import {
  allPlatformRecords,
  engineer,
  newKey,
  platformEffects,
  productionRequest,
  testEnvironmentRequest,
} from './changes-harness.ts';

/** change_create from a client that can ask, with the headers the tool mirrors. */
const askingCreate = (url: string, token: string, args: Record<string, unknown>, retry = {}) =>
  askingCall(
    url,
    token,
    {
      name: 'change_create',
      arguments: args,
      headers: { 'Service-Id': String(args.service_id), Environment: String(args.environment) },
    },
    retry,
  );

/**
 * A production change_create is the user's own decision: the question shows what the dry run
 * computes, only the confirmed change is created, once; a client that cannot ask is refused.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`change_create confirmed by the user (${target.dialect})`, () => {
    const suite = gatewayOnStore(target, { modules: [changesDomain] });
    let seeded = 0;

    const app = () => suite.gw.app;
    const token = () => suite.gw.tokenFor('changes_engineer');
    const created = async () => (await allPlatformRecords(app())).slice(seeded);
    const operationsOf = (key: string) =>
      app().db.query<{ id: string; status: string }>('SELECT id, status FROM operations WHERE idem_key = ?', [
        key,
      ]);
    /** How each audited change_create call went with its confirmation (null: none was involved). */
    const confirmationsAudited = async () => {
      const rows = await app().db.query<{ detail: string }>(
        'SELECT detail FROM audit_log WHERE action = ? ORDER BY seq',
        ['change_create'],
      );
      const details = rows.map((r) => JSON.parse(r.detail) as { confirmation?: { outcome: string } });
      return details.map((d) => d.confirmation?.outcome ?? null);
    };
    const create = async (args: Record<string, unknown>, script: ScriptedAnswer[]) => {
      if (seeded === 0) seeded = (await allPlatformRecords(app())).length;
      const { client, asked } = await confirmingClient(suite.gw.url, await token(), script);
      const answer = await client.callTool({ name: 'change_create', arguments: args });
      await client.close();
      return { envelope: answer.structuredContent as unknown as OutcomeEnvelope, asked };
    };

    it('accepted: the question shows what the dry run computes, and the change is created exactly once', async () => {
      const request = productionRequest(app(), { dry_run: false });
      const { envelope, asked } = await create(request, [{ action: 'accept' }]);
      expect(envelope).toMatchObject({
        status: 'completed',
        replayed: false,
        result: {
          state: 'pending_approval',
          effective_risk: 'medium',
          approval_group: 'production-change-approvers',
        },
      });
      expect(asked).toHaveLength(1);
      const question = asked[0]!.message;
      expect(question).toContain('Create a medium-risk production change of payments-api');
      expect(question).toContain('- approval_group: production-change-approvers');
      expect(question).toContain(`- start: ${request.start_time}`);
      expect(question).toContain('- summary: "Deploy payment timeout configuration update"');
      expect(question).toContain('- identical_change: none');

      const replay = await create(request, [{ action: 'decline' }]);
      expect(replay.envelope).toMatchObject({ status: 'completed', replayed: true });
      expect(replay.asked).toEqual([]);

      const records = await created();
      expect(records).toEqual([
        {
          change_id: envelope.result!.change_id,
          state: 'pending_approval',
          operation_id: envelope.operation_id,
        },
      ]);
      expect((await platformEffects(app(), envelope.operation_id!)).map((e) => e.action)).toEqual([
        'create_record',
        'attach_implementation_plan',
        'attach_rollback_plan',
        'request_approval',
      ]);
      expect(await operationsOf(request.idempotency_key as string)).toEqual([
        { id: envelope.operation_id, status: 'completed' },
      ]);
      expect(await confirmationsAudited()).toEqual(['asked', 'accepted', null]);
    });

    it('declined: nothing is created, nothing reserved, and the key asks again later', async () => {
      const request = productionRequest(app(), { dry_run: false });
      const declined = await create(request, [{ action: 'decline' }]);
      expect(declined.envelope).toMatchObject({
        status: 'rejected',
        code: 'CONFIRMATION_DECLINED',
        operation_id: null,
      });
      expect(await created()).toEqual([]);
      expect(await platformEffects(app())).toEqual([]);
      expect(await operationsOf(request.idempotency_key as string)).toEqual([]);

      const later = await create(request, [{ action: 'accept' }]);
      expect(later.envelope).toMatchObject({ status: 'completed', replayed: false });
      expect(later.asked).toHaveLength(1);
      expect(await created()).toHaveLength(1);
    });

    it('an answer sent back with other arguments creates nothing', async () => {
      const request = productionRequest(app(), { dry_run: false });
      const first = await askingCreate(suite.gw.url, await token(), request);
      expect(first.body.result).toMatchObject({ resultType: 'input_required' });
      const changed = await askingCreate(
        suite.gw.url,
        await token(),
        { ...request, duration_minutes: 90 },
        { inputResponses: accepted(), requestState: first.body.result!.requestState },
      );
      expect(changed.body.result).toMatchObject({
        structuredContent: { status: 'failed', code: 'CONFIRMATION_MISMATCH', operation_id: null },
      });
      expect(await created()).toEqual([]);
      expect(await platformEffects(app())).toEqual([]);
      expect(await operationsOf(request.idempotency_key as string)).toEqual([]);
    });

    it('a client that cannot ask its user is refused in production and asks nobody elsewhere', async () => {
      const request = productionRequest(app(), { dry_run: false });
      const refused = await suite.gw.callTool('changes_engineer', 'change_create', request);
      expect(refused).toMatchObject({
        status: 'failed',
        code: 'CONFIRMATION_UNAVAILABLE',
        category: 'confirmation',
        operation_id: null,
      });
      expect(refused.message).toContain('production change of payments-api');
      expect(await created()).toEqual([]);
      expect(await platformEffects(app())).toEqual([]);
      expect(await operationsOf(request.idempotency_key as string)).toEqual([]);

      const testChange = testEnvironmentRequest(app(), { dry_run: false });
      const done = await suite.gw.callTool('changes_engineer', 'change_create', testChange);
      expect(done).toMatchObject({ status: 'completed', result: { state: 'scheduled' } });
      expect(await created()).toEqual([expect.objectContaining({ operation_id: done.operation_id })]);
    });

    it('a request the policy refuses is refused as before, without a question, on every client', async () => {
      const outside = productionRequest(app(), { dry_run: false });
      outside.start_time = new Date(Date.parse(outside.start_time as string) - 4 * 3_600_000).toISOString();
      const asking = await create(outside, [{ action: 'accept' }]);
      const old = await suite.gw.callTool('changes_engineer', 'change_create', {
        ...outside,
        idempotency_key: newKey('old-client'),
      });
      expect(asking.asked).toEqual([]);
      for (const answer of [asking.envelope, old]) {
        expect(answer).toMatchObject({
          status: 'rejected',
          code: 'MAINTENANCE_WINDOW_REQUIRED',
          field_errors: [{ field: 'start_time', code: 'OUTSIDE_APPROVED_WINDOW' }],
        });
        expect(answer.operation_id).not.toBeNull();
      }
      expect({ ...asking.envelope, operation_id: null }).toEqual({ ...old, operation_id: null });
      expect(await created()).toEqual([]);
      expect(await platformEffects(app())).toEqual([]);
    });

    it('a possible duplicate goes to the user, not the model: declined, nothing is made; accepted, a second change', async () => {
      const request = productionRequest(app(), { dry_run: false });
      const first = await create(request, [{ action: 'accept' }]);
      expect(first.envelope.status).toBe('completed');
      // No confirm_new_change: the person who is asked decides whether this is a new change.
      const again = { ...request, idempotency_key: newKey('again') };
      const declined = await create(again, [{ action: 'decline' }]);
      expect(declined.envelope).toMatchObject({ status: 'rejected', code: 'CONFIRMATION_DECLINED' });
      expect(declined.asked[0]!.message).toContain(
        `An identical change request of yours was created as operation ${first.envelope.operation_id}`,
      );
      expect(declined.asked[0]!.message).toContain(
        `- identical_change: operation ${first.envelope.operation_id}`,
      );
      expect(await created()).toHaveLength(1);

      expect(await operationsOf(again.idempotency_key)).toEqual([]);

      const second = await create(again, [{ action: 'accept' }]);
      expect(second.envelope).toMatchObject({ status: 'completed', replayed: false });
      expect((await created()).map((r) => r.operation_id)).toEqual([
        first.envelope.operation_id,
        second.envelope.operation_id,
      ]);
      expect(await confirmationsAudited()).toEqual([
        'asked',
        'accepted',
        'asked',
        'declined',
        'asked',
        'accepted',
      ]);

      // A client that cannot ask gets the duplicate as before: the model relays it, nothing is made.
      const relayed = await suite.gw.callTool('changes_engineer', 'change_create', {
        ...request,
        idempotency_key: newKey('relayed'),
      });
      expect(relayed).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });
      expect(await created()).toHaveLength(2);
    });

    it('the execution checks that its own review still decides what the user confirmed', async () => {
      const { asked, run } = await askThenRun(
        app().registry.get('change_create')!,
        productionRequest(app(), { dry_run: false }),
        engineer,
      );
      const confirmed = { via: 'client' as const, choice: null, digest: 'shown-to-the-user' };
      const lowerRisk = await run({ ...confirmed, facts: { ...asked.facts, effective_risk: 'low' } });
      expect(lowerRisk).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH' });
      expect(lowerRisk.message).toContain('effective_risk');
      const otherGroup = await run({ ...confirmed, facts: { ...asked.facts, approval_group: 'nobody' } });
      expect(otherGroup).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH' });
      expect(await run(null)).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH' });
      expect(await created()).toEqual([]);
      expect(await platformEffects(app())).toEqual([]);
      expect(await app().db.query('SELECT operation_id FROM changes_create_claims')).toEqual([]);
    });
  });
}
