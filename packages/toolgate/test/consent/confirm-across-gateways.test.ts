import { EffectsLedger } from '@toolgate/simulation';
import { describe, expect, it } from 'vitest';
import { ChildGateway } from '../../../../test/operations/child-gateway.ts';
import { storeTargets } from '../../../../test/support/store-targets.ts';
import { executions } from '../../../../test/support/test-domain.ts';
import { modernRequest } from '../../../../test/tasks/extension-client.ts';
import { loadOrCreateDevKeys } from '../../src/auth/dev-keys.ts';
import { mintToken } from '../../src/auth/mint-token.ts';
import type { TokenSubject } from '../../src/auth/token-claims.ts';
import { openDatabase } from '../../src/store/open-database.ts';

const alice: TokenSubject = {
  sub: 'alice',
  tenant: 'tenant-a',
  actor: 'customer',
  scopes: ['testing:write'],
};
const ASKING = { elicitation: {} };
const answer = (action: 'accept' | 'decline') => ({
  confirmation: action === 'accept' ? { action, content: { confirm: true } } : { action },
});

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `a confirmation asked by one gateway, answered through another (${target.dialect})`,
    () => {
      it('declined executes nothing; accepted executes once whichever gateway gets the retry; a changed request nothing', async () => {
        const location = await target.create();
        const { dataDir, databaseUrl } = location.config;
        const db = await openDatabase(location.config);
        const gateways: ChildGateway[] = [];
        try {
          gateways.push(await ChildGateway.start({ dataDir, databaseUrl }));
          gateways.push(await ChildGateway.start({ dataDir, databaseUrl }));
          const [first, second] = gateways as [ChildGateway, ChildGateway];
          const keys = await loadOrCreateDevKeys(dataDir);
          const token = (g: ChildGateway) => mintToken(keys, alice, { audience: g.resource });
          const call = async (
            g: ChildGateway,
            args: Record<string, unknown>,
            retry: Record<string, unknown> = {},
          ) =>
            (
              await modernRequest(
                g.url,
                await token(g),
                'tools/call',
                { name: 'testing_credit_confirmed', arguments: args, ...retry },
                { capabilities: ASKING },
              )
            ).body;
          const ledger = new EffectsLedger(db);

          const declinedArgs = {
            account: 'acc-1',
            amount: 9_000,
            idempotency_key: 'consent-across-declined',
          };
          const asked = await call(first, declinedArgs);
          expect(asked.result).toMatchObject({ resultType: 'input_required' });
          const declined = await call(second, declinedArgs, {
            inputResponses: answer('decline'),
            requestState: asked.result!.requestState,
          });
          expect(declined.result).toMatchObject({ structuredContent: { code: 'CONFIRMATION_DECLINED' } });
          expect(await executions(db, 'execute')).toEqual([]);

          const args = { account: 'acc-2', amount: 9_000, idempotency_key: 'consent-across-accepted' };
          const state = (await call(first, args)).result!.requestState;
          const changed = await call(
            second,
            { ...args, amount: 90_000 },
            { inputResponses: answer('accept'), requestState: state },
          );
          expect(changed.result).toMatchObject({ structuredContent: { code: 'CONFIRMATION_MISMATCH' } });
          expect(await executions(db, 'execute')).toEqual([]);
          // The same accepted answer delivered to both gateways at once: one execution, one effect.
          const [a, b] = await Promise.all(
            [second, first].map((g) =>
              call(g, args, { inputResponses: answer('accept'), requestState: state }),
            ),
          );
          const statuses = [a, b].map(
            (r) => (r!.result as { structuredContent: { status: string } }).structuredContent.status,
          );
          expect(statuses.sort()).toEqual(['completed', 'completed']);
          expect(await executions(db, 'execute')).toHaveLength(1);
          expect(await ledger.list({ system: 'test_bank' })).toHaveLength(1);
        } finally {
          await Promise.all(gateways.map((g) => g.stop()));
          await db.close();
          await location.dispose();
        }
      }, 60_000);
    },
  );
}
