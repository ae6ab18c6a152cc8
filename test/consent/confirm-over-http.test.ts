import { confirmingClient } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { gatewayOnStore } from '../support/store-gateway.ts';
import { storeTargets } from '../support/store-targets.ts';
import { executions, TEST_SYSTEM, testDomain } from '../support/test-domain.ts';

const ALICE = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write', 'operations:read'],
} as const;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`a person confirms through the client (${target.dialect})`, () => {
    const suite = gatewayOnStore(target, { modules: [testDomain()] });
    const credit = (amount: number, key: string, extra: Record<string, unknown> = {}) => ({
      name: 'testing_credit_confirmed',
      arguments: { account: 'acc-7', amount, idempotency_key: key, ...extra },
    });
    const world = async () => {
      const { db } = suite.gw.app;
      return {
        executed: await executions(db, 'execute'),
        ledger: await db.query<{ ref: string }>('SELECT ref FROM effects WHERE system = ?', [TEST_SYSTEM]),
        operations: await db.query<{ key: string; status: string }>(
          'SELECT idem_key AS key, status FROM operations',
        ),
        audit: await db.query<{ code: string | null; detail: string }>(
          'SELECT code, detail FROM audit_log WHERE action = ? ORDER BY seq',
          ['testing_credit_confirmed'],
        ),
      };
    };

    it('asks once; accepted, exactly the confirmed request executes once, and a retry replays it', async () => {
      const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [
        { action: 'accept' },
      ]);
      const first = await client.callTool(credit(2_500, 'consent-accept-00001'));
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toContain('Credit 2500 cents to account acc-7.');
      expect(first.structuredContent).toMatchObject({ status: 'completed', replayed: false });
      const again = await client.callTool(credit(2_500, 'consent-accept-00001'));
      expect(again.structuredContent).toMatchObject({ status: 'completed', replayed: true });
      expect(asked).toHaveLength(1);
      const after = await world();
      expect(after.executed).toHaveLength(1);
      expect(after.executed[0]!.confirmed).toMatch(/^client::[0-9a-f]{24}$/);
      expect(after.ledger).toHaveLength(1);
      expect(after.operations).toEqual([{ key: 'consent-accept-00001', status: 'completed' }]);
      const confirmations = after.audit.map((a) => JSON.parse(a.detail).confirmation?.outcome);
      expect(confirmations).toEqual(['asked', 'accepted', undefined]);
      await client.close();
    });

    it.each([
      ['decline', 'declined'],
      ['cancel', 'cancelled'],
    ] as const)('on %s nothing executes and the key stays free', async (action, outcome) => {
      const { client } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [{ action }]);
      const answer = await client.callTool(credit(5_000, `consent-${action}-00001`));
      expect(answer.structuredContent).toMatchObject({
        status: 'rejected',
        code: 'CONFIRMATION_DECLINED',
        operation_id: null,
      });
      const after = await world();
      expect(after.executed).toEqual([]);
      expect(after.ledger).toEqual([]);
      expect(after.operations).toEqual([]);
      expect(after.audit.map((a) => JSON.parse(a.detail).confirmation?.outcome)).toEqual(['asked', outcome]);
      await client.close();
    });

    it('an accept that does not confirm is a decline', async () => {
      const { client } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [
        { action: 'accept', confirm: false },
      ]);
      const answer = await client.callTool(credit(5_000, 'consent-unticked-001'));
      expect(answer.structuredContent).toMatchObject({ code: 'CONFIRMATION_DECLINED' });
      expect((await world()).executed).toEqual([]);
      await client.close();
    });

    it('a small credit needs no confirmation and runs at once', async () => {
      const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [
        { action: 'decline' },
      ]);
      const answer = await client.callTool(credit(100, 'consent-small-000001'));
      expect(answer.structuredContent).toMatchObject({ status: 'completed' });
      expect(asked).toEqual([]);
      expect((await world()).executed).toHaveLength(1);
      await client.close();
    });

    it('a choice is offered, and the chosen option reaches the handler', async () => {
      const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [
        { action: 'accept', choice: 'omit' },
      ]);
      const answer = await client.callTool(credit(3_000, 'consent-choice-00001', { memo: 'rent' }));
      expect(answer.structuredContent).toMatchObject({ status: 'completed' });
      expect(asked[0]!.requestedSchema).toMatchObject({
        properties: { choice: { oneOf: [{ const: 'print' }, { const: 'omit' }] } },
        required: ['confirm', 'choice'],
      });
      expect((await world()).executed[0]!.confirmed).toMatch(/^client:omit:/);
      await client.close();
    });

    it('an answer naming no offered option executes nothing', async () => {
      const { client } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [
        { action: 'accept', choice: 'shout' },
      ]);
      const answer = await client.callTool(credit(3_000, 'consent-badchoice-01', { memo: 'rent' }));
      expect(answer.structuredContent).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH' });
      expect((await world()).executed).toEqual([]);
      await client.close();
    });

    it('when the ask cannot find out what the call would do, it is refused before anything is reserved', async () => {
      const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [
        { action: 'accept' },
      ]);
      const answer = await client.callTool({
        name: 'testing_credit_confirmed',
        arguments: { account: 'unreachable', amount: 5_000, idempotency_key: 'consent-unreach-0001' },
      });
      expect(answer.structuredContent).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE' });
      expect(asked).toEqual([]);
      const after = await world();
      expect(after.executed).toEqual([]);
      expect(after.operations).toEqual([]);
      await client.close();
    });
  });
}
