import { simulationWorld } from '@toolgate/simulation';
import { confirmingClient } from 'toolgate/testing';
import { describe, expect, it } from 'vitest';
import { gatewayOnStore } from '../support/store-gateway.ts';
import { storeTargets } from '../support/store-targets.ts';
import { executions, testDomain } from '../support/test-domain.ts';
import { modernRequest } from '../tasks/extension-client.ts';

const ALICE = { sub: 'alice', tenant: 'tenant-a', actor: 'customer', scopes: ['testing:write'] } as const;

/** The digests a CONFIRMATION_REQUIRED resolution names, in order. */
function digestsIn(resolution: string | null): string[] {
  return [...(resolution ?? '').matchAll(/confirmation:? "([0-9a-f]{24})"/g)].map((m) => m[1]!);
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `clients that cannot ask their user get the tool's fallback (${target.dialect})`,
    () => {
      const suite = gatewayOnStore(target, { modules: [testDomain()] });
      const ran = () => executions(suite.gw.app.db, 'execute');

      it('refuse: a 2025-11-25 client gets CONFIRMATION_UNAVAILABLE and nothing is reserved or run', async () => {
        const answer = await suite.gw.callTool(ALICE, 'testing_credit_confirmed', {
          account: 'acc-1',
          amount: 5_000,
          idempotency_key: 'consent-refuse-000001',
        });
        expect(answer).toMatchObject({
          status: 'failed',
          code: 'CONFIRMATION_UNAVAILABLE',
          category: 'confirmation',
          retryable: false,
          operation_id: null,
        });
        expect(answer.message).toContain('Credit 5000 cents to account acc-1.');
        expect(await ran()).toEqual([]);
        expect(await suite.gw.app.db.query('SELECT id FROM operations')).toEqual([]);
      });

      it('refuse: a 2026-07-28 client that declares no elicitation is refused the same way', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const args = { account: 'acc-1', amount: 5_000, idempotency_key: 'consent-refuse-000002' };
        const answer = await modernRequest(suite.gw.url, token, 'tools/call', {
          name: 'testing_credit_confirmed',
          arguments: args,
        });
        expect(answer.body.result).toMatchObject({
          resultType: 'complete',
          structuredContent: { code: 'CONFIRMATION_UNAVAILABLE' },
        });
        expect(await ran()).toEqual([]);
      });

      it('agent: the relayed digest lets exactly the shown request run once; a replay needs no digest', async () => {
        const args = { account: 'acc-2', amount: 5_000, idempotency_key: 'consent-relay-0000001' };
        const first = await suite.gw.callTool(ALICE, 'testing_credit_relayed', args);
        expect(first).toMatchObject({ status: 'requires_confirmation', code: 'CONFIRMATION_REQUIRED' });
        expect(first.message).toContain('Credit 5000 cents to account acc-2. (account: acc-2; amount: 5000)');
        const [digest] = digestsIn(first.resolution);
        expect(digest).toMatch(/^[0-9a-f]{24}$/);
        expect(await ran()).toEqual([]);

        const other = await suite.gw.callTool(ALICE, 'testing_credit_relayed', {
          ...args,
          amount: 50_000,
          confirmation: digest,
        });
        expect(other).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH' });
        expect(await ran()).toEqual([]);

        const done = await suite.gw.callTool(ALICE, 'testing_credit_relayed', {
          ...args,
          confirmation: digest,
        });
        expect(done).toMatchObject({ status: 'completed', replayed: false });
        const replay = await suite.gw.callTool(ALICE, 'testing_credit_relayed', args);
        expect(replay).toMatchObject({
          status: 'completed',
          replayed: true,
          operation_id: done.operation_id,
        });
        const executed = await ran();
        expect(executed).toHaveLength(1);
        expect(executed[0]!.confirmed).toBe(`agent::${digest}`);
        // The same confirmation under a new key would be a second operation nobody confirmed.
        const again = await suite.gw.callTool(ALICE, 'testing_credit_relayed', {
          ...args,
          idempotency_key: 'consent-relay-0000002',
          confirmation: digest,
        });
        expect(again).toMatchObject({ status: 'failed', code: 'CONFIRMATION_MISMATCH' });
        expect(await ran()).toHaveLength(1);
      });

      it('agent: a choice names one digest per option, and the option chosen reaches the handler', async () => {
        const args = {
          account: 'acc-3',
          amount: 2_000,
          memo: 'rent',
          idempotency_key: 'consent-relay-choice1',
        };
        const first = await suite.gw.callTool(ALICE, 'testing_credit_relayed', args);
        const [print, omit] = digestsIn(first.resolution);
        expect(print).not.toBe(omit);
        const done = await suite.gw.callTool(ALICE, 'testing_credit_relayed', {
          ...args,
          confirmation: omit,
        });
        expect(done).toMatchObject({ status: 'completed' });
        expect((await ran())[0]!.confirmed).toBe(`agent:omit:${omit}`);
      });

      it('a client that can ask is asked even for an agent-fallback tool, and its answer is what counts', async () => {
        const { client, asked } = await confirmingClient(suite.gw.url, await suite.gw.tokenFor(ALICE), [
          { action: 'decline' },
        ]);
        const answer = await client.callTool({
          name: 'testing_credit_relayed',
          arguments: { account: 'acc-4', amount: 5_000, idempotency_key: 'consent-relay-client1' },
        });
        expect(asked).toHaveLength(1);
        expect(answer.structuredContent).toMatchObject({ code: 'CONFIRMATION_DECLINED' });
        expect(await ran()).toEqual([]);
        await client.close();
      });

      it('a key whose execution failed without effect is asked again before it runs again', async () => {
        const args = { account: 'acc-7', amount: 5_000, idempotency_key: 'consent-failed-retry1' };
        simulationWorld(suite.gw.app.db).faults.arm({ target: 'test_bank', fault: 'unavailable', times: 1 });
        const first = await suite.gw.callTool(ALICE, 'testing_credit_relayed', args);
        const [digest] = digestsIn(first.resolution);
        const failed = await suite.gw.callTool(ALICE, 'testing_credit_relayed', {
          ...args,
          confirmation: digest,
        });
        expect(failed).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE' });
        const bare = await suite.gw.callTool(ALICE, 'testing_credit_relayed', args);
        expect(bare).toMatchObject({ status: 'requires_confirmation', code: 'CONFIRMATION_REQUIRED' });
        expect(await ran()).toHaveLength(1);
        const refused = await suite.gw.callTool(ALICE, 'testing_credit_confirmed', {
          ...args,
          idempotency_key: 'consent-failed-retry2',
        });
        expect(refused).toMatchObject({ code: 'CONFIRMATION_UNAVAILABLE' });
        const done = await suite.gw.callTool(ALICE, 'testing_credit_relayed', {
          ...args,
          confirmation: digest,
        });
        expect(done).toMatchObject({ status: 'completed' });
        const executed = await ran();
        expect(executed).toHaveLength(2);
        expect(executed[1]!.confirmed).toBe(`agent::${digest}`);
      });

      it('a dry run never asks', async () => {
        const answer = await suite.gw.callTool(ALICE, 'testing_credit_confirmed', {
          account: 'acc-5',
          amount: 5_000,
          dry_run: true,
          idempotency_key: 'consent-dry-run-00001',
        });
        expect(answer).toMatchObject({ status: 'validated' });
      });

      it('counts each confirmation by tool, channel and outcome', async () => {
        await suite.gw.callTool(ALICE, 'testing_credit_confirmed', {
          account: 'acc-6',
          amount: 5_000,
          idempotency_key: 'consent-metrics-00001',
        });
        const text = await suite.gw.app.metrics.registry.getSingleMetricAsString(
          'toolgate_confirmations_total',
        );
        expect(text).toMatch(
          /toolgate_confirmations_total\{tool="testing_credit_confirmed",via="client",outcome="unavailable"\} [1-9]/,
        );
      });
    },
  );
}
