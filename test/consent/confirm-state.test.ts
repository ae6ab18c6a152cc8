import { describe, expect, it } from 'vitest';
import { gatewayOnStore } from '../support/store-gateway.ts';
import { storeTargets } from '../support/store-targets.ts';
import { executions, testDomain } from '../support/test-domain.ts';
import { modernRequest, type WireAnswer } from '../tasks/extension-client.ts';

const ALICE = { sub: 'alice', tenant: 'tenant-a', actor: 'customer', scopes: ['testing:write'] } as const;
const MALLORY = { sub: 'mallory', tenant: 'tenant-a', actor: 'customer', scopes: ['testing:write'] } as const;
const ASKING = { elicitation: { form: {} } };

/** One 2026-07-28 tools/call of the confirming credit, as a client that can ask its user sends it. */
function call(
  url: string,
  token: string,
  args: Record<string, unknown>,
  retry: Record<string, unknown> = {},
) {
  return modernRequest(
    url,
    token,
    'tools/call',
    { name: 'testing_credit_confirmed', arguments: args, ...retry },
    { capabilities: ASKING },
  );
}

const ACCEPTED = { confirmation: { action: 'accept', content: { confirm: true } } };

function stateOf(answer: WireAnswer): string {
  expect(answer.body.result).toMatchObject({ resultType: 'input_required' });
  return answer.body.result!.requestState as string;
}

for (const target of storeTargets) {
  describe.skipIf(!target.available)(
    `confirmation state is checked before anything runs (${target.dialect})`,
    () => {
      const suite = gatewayOnStore(target, { modules: [testDomain()] });
      const args = { account: 'acc-9', amount: 4_000, idempotency_key: 'consent-state-000001' };
      const nothingRan = async () => {
        const { db } = suite.gw.app;
        expect(await executions(db, 'execute')).toEqual([]);
        expect(await db.query('SELECT id FROM operations')).toEqual([]);
      };

      it('the first answer is one form elicitation and signed state; nothing is reserved', async () => {
        const answer = await call(suite.gw.url, await suite.gw.tokenFor(ALICE), args);
        expect(answer.status).toBe(200);
        const result = answer.body.result!;
        expect(Object.keys(result.inputRequests as object)).toEqual(['confirmation']);
        expect(result.inputRequests).toMatchObject({
          confirmation: {
            method: 'elicitation/create',
            params: { mode: 'form', message: expect.stringContaining('Credit 4000 cents') },
          },
        });
        expect(stateOf(answer)).toMatch(/^v1\./);
        await nothingRan();
      });

      it('the retry with the state and an accept executes the confirmed request once', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const state = stateOf(await call(suite.gw.url, token, args));
        const done = await call(suite.gw.url, token, args, { inputResponses: ACCEPTED, requestState: state });
        expect(done.body.result).toMatchObject({
          structuredContent: { status: 'completed', replayed: false },
        });
        const again = await call(suite.gw.url, token, args, {
          inputResponses: ACCEPTED,
          requestState: state,
        });
        expect(again.body.result).toMatchObject({
          structuredContent: { status: 'completed', replayed: true },
        });
        expect(await executions(suite.gw.app.db, 'execute')).toHaveLength(1);
      });

      it('changed arguments with the state of other ones execute nothing', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const state = stateOf(await call(suite.gw.url, token, args));
        for (const changed of [
          { ...args, amount: 40_000 },
          { ...args, account: 'acc-10' },
          { ...args, idempotency_key: 'consent-state-000002' },
        ]) {
          const answer = await call(suite.gw.url, token, changed, {
            inputResponses: ACCEPTED,
            requestState: state,
          });
          expect(answer.body.result).toMatchObject({
            structuredContent: { status: 'failed', code: 'CONFIRMATION_MISMATCH' },
          });
        }
        await nothingRan();
      });

      it('tampered, foreign and another principal’s state is the spec’s invalid state; nothing runs', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const state = stateOf(await call(suite.gw.url, token, args));
        const [version, body, mac] = state.split('.');
        const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
        payload.p.digest = '0'.repeat(24);
        const forged = `${version}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
        const mallory = await suite.gw.tokenFor(MALLORY);
        for (const [who, sent] of [
          [token, forged],
          [token, 'v1.e30.AAAA'],
          [token, 'not even state'],
          [mallory, state],
        ] as const) {
          const answer = await call(suite.gw.url, who, args, {
            inputResponses: ACCEPTED,
            requestState: sent,
          });
          expect(answer.body.error).toMatchObject({
            code: -32602,
            message: 'Invalid or expired requestState',
          });
        }
        await nothingRan();
      });

      it('the state binds the whole principal: the same subject with another actor, group, scope or application cannot answer', async () => {
        const asked = { ...ALICE, groups: ['payments'], application: 'support-console' };
        const state = stateOf(await call(suite.gw.url, await suite.gw.tokenFor(asked), args));
        for (const other of [
          { ...asked, actor: 'support_agent' as const },
          { ...asked, groups: ['payments', 'admins'] },
          { ...asked, application: 'other-app' },
          { ...asked, scopes: ['testing:write', 'operations:read'] },
        ]) {
          const answer = await call(suite.gw.url, await suite.gw.tokenFor(other), args, {
            inputResponses: ACCEPTED,
            requestState: state,
          });
          expect(answer.body.error, JSON.stringify(other)).toMatchObject({
            code: -32602,
            message: 'Invalid or expired requestState',
          });
        }
        await nothingRan();
        // A new token of the very same principal answers it.
        const same = await call(suite.gw.url, await suite.gw.tokenFor(asked), args, {
          inputResponses: ACCEPTED,
          requestState: state,
        });
        expect(same.body.result).toMatchObject({ structuredContent: { status: 'completed' } });
        expect(await executions(suite.gw.app.db, 'execute')).toHaveLength(1);
      });

      it('an accept naming a choice on a question that offers none is a mismatch; nothing runs', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const plain = { ...args, idempotency_key: 'consent-state-nochoice' };
        const state = stateOf(await call(suite.gw.url, token, plain));
        const answer = await call(suite.gw.url, token, plain, {
          inputResponses: { confirmation: { action: 'accept', content: { confirm: true, choice: 'print' } } },
          requestState: state,
        });
        expect(answer.body.result).toMatchObject({ structuredContent: { code: 'CONFIRMATION_MISMATCH' } });
        expect(await executions(suite.gw.app.db, 'execute')).toEqual([]);
      });

      it('a client that also accepts tasks is asked the same way, and its confirmed call runs once', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const both = { ...ASKING, extensions: { 'io.modelcontextprotocol/tasks': {} } };
        const send = (retry: Record<string, unknown> = {}) =>
          modernRequest(
            suite.gw.url,
            token,
            'tools/call',
            { name: 'testing_credit_confirmed', arguments: args, ...retry },
            { capabilities: both },
          );
        const state = stateOf(await send());
        const done = await send({ inputResponses: ACCEPTED, requestState: state });
        expect(done.body.result).toMatchObject({ structuredContent: { status: 'completed' } });
        expect(await executions(suite.gw.app.db, 'execute')).toHaveLength(1);
      });

      it('an accept without state is asked again, not executed', async () => {
        const token = await suite.gw.tokenFor(ALICE);
        const answer = await call(suite.gw.url, token, args, { inputResponses: ACCEPTED });
        expect(answer.body.result).toMatchObject({ resultType: 'input_required' });
        await nothingRan();
      });
    },
  );
}

describe('confirmation state expires', () => {
  const sqlite = storeTargets.find((t) => t.dialect === 'sqlite')!;
  const suite = gatewayOnStore(sqlite, { modules: [testDomain()], http: { confirmationTtlSeconds: 1 } });

  it('an answer after the expiry executes nothing', async () => {
    const token = await suite.gw.tokenFor(ALICE);
    const args = { account: 'acc-9', amount: 4_000, idempotency_key: 'consent-expiry-00001' };
    const state = stateOf(await call(suite.gw.url, token, args));
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const answer = await call(suite.gw.url, token, args, { inputResponses: ACCEPTED, requestState: state });
    expect(answer.body.error).toMatchObject({ code: -32602 });
    expect(await executions(suite.gw.app.db, 'execute')).toEqual([]);
  });
});
