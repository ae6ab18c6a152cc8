import type { OutcomeEnvelope } from 'toolgate';
import { confirmingClient, type ScriptedAnswer } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { gatewayOnStore } from '../support/store-gateway.ts';
import { storeTargets } from '../support/store-targets.ts';
import { executions, testDomain } from '../support/test-domain.ts';

const ALICE = { sub: 'alice', tenant: 'tenant-a', actor: 'customer', scopes: ['testing:write'] } as const;

/**
 * A possible duplicate of a tool that asks the person goes to the person, not to the model: the
 * question names the earlier operation, a decline runs nothing and reserves nothing, an accept runs
 * the new operation without the model's confirm field. Where nobody is asked, the duplicate is
 * answered as always.
 */
for (const target of storeTargets) {
  describe.skipIf(!target.available)(`a possible duplicate the person decides (${target.dialect})`, () => {
    const suite = gatewayOnStore(target, { modules: [testDomain()] });
    const ran = () => executions(suite.gw.app.db, 'execute');
    const credits = () =>
      suite.gw.app.db.query<{ account: string; amount: number }>(
        'SELECT account, amount FROM test_bank_credits ORDER BY at',
      );
    const operationsOf = (key: string) =>
      suite.gw.app.db.query<{ id: string }>('SELECT id FROM operations WHERE idem_key = ?', [key]);
    const gift = async (args: Record<string, unknown>, script: ScriptedAnswer[]) => {
      const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), script);
      const answer = await client.callTool({ name: 'testing_gift_confirmed', arguments: args });
      await client.close();
      return { envelope: answer.structuredContent as unknown as OutcomeEnvelope, asked };
    };

    it('names the earlier operation in the question; declined runs nothing, accepted runs one more', async () => {
      const base = { account: 'acc-dup', amount: 5_000 };
      const first = await gift({ ...base, idempotency_key: 'consent-dup-first-01' }, [{ action: 'accept' }]);
      expect(first.envelope).toMatchObject({ status: 'completed' });

      const again = { ...base, idempotency_key: 'consent-dup-again-01' };
      const declined = await gift(again, [{ action: 'decline' }]);
      expect(declined.envelope).toMatchObject({ status: 'rejected', code: 'CONFIRMATION_DECLINED' });
      expect(declined.asked).toHaveLength(1);
      expect(declined.asked[0]!.message).toMatch(
        new RegExp(
          `An identical request was made at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z as operation ${first.envelope.operation_id}`,
        ),
      );
      expect(await operationsOf(again.idempotency_key)).toEqual([]);
      expect(await ran()).toHaveLength(1);

      const accepted = await gift(again, [{ action: 'accept' }]);
      expect(accepted.envelope).toMatchObject({ status: 'completed', replayed: false });
      expect(accepted.envelope.operation_id).not.toBe(first.envelope.operation_id);
      expect((await ran()).map((e) => e.operation_id)).toEqual([
        first.envelope.operation_id,
        accepted.envelope.operation_id,
      ]);
      expect(await credits()).toEqual([
        { account: 'acc-dup', amount: 5_000 },
        { account: 'acc-dup', amount: 5_000 },
      ]);
    });

    it('answers POSSIBLE_DUPLICATE where nobody is asked: a small credit, or a client that cannot ask', async () => {
      const small = { account: 'acc-small', amount: 50 };
      const first = await gift({ ...small, idempotency_key: 'consent-dup-small-01' }, [{ action: 'accept' }]);
      expect(first.envelope).toMatchObject({ status: 'completed' });
      expect(first.asked).toEqual([]);
      const again = await gift({ ...small, idempotency_key: 'consent-dup-small-02' }, [{ action: 'accept' }]);
      expect(again.asked).toEqual([]);
      expect(again.envelope).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });

      const big = { account: 'acc-big', amount: 5_000 };
      await gift({ ...big, idempotency_key: 'consent-dup-big-0001' }, [{ action: 'accept' }]);
      const relayed = await suite.gw.callTool(ALICE, 'testing_gift_confirmed', {
        ...big,
        idempotency_key: 'consent-dup-big-0002',
      });
      expect(relayed).toMatchObject({ status: 'requires_confirmation', code: 'POSSIBLE_DUPLICATE' });
      // The model's word that it is new does not stand in for the person's confirmation.
      const flagged = await suite.gw.callTool(ALICE, 'testing_gift_confirmed', {
        ...big,
        confirm_duplicate: true,
        idempotency_key: 'consent-dup-big-0002',
      });
      expect(flagged).toMatchObject({ status: 'failed', code: 'CONFIRMATION_UNAVAILABLE' });
      expect(await operationsOf('consent-dup-big-0002')).toEqual([]);
      expect(await credits()).toHaveLength(2);
    });
  });
}
