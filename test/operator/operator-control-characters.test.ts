import { randomUUID } from 'node:crypto';
import { defineException, defineModule, defineTool, idempotencyKeySchema, outcome } from 'toolgate';
import type { ShiftableClock } from 'toolgate/server';
import type { TokenSubject } from 'toolgate/testing';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operatorApi } from '../support/operator-api.ts';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { type ParcelLedger, parcelTools, reviewer, shipArgs, shipper, watcher } from './parcel-tools.ts';

/** A kind whose target schema takes any string: the API still refuses one with a control character. */
const creditHold = defineException({
  kind: 'credit_hold_lifted',
  title: 'Credit hold lifted',
  description: 'Lets one account order while its credit hold stands, for at most a day.',
  target: z.strictObject({
    account_id: z.string().min(1).max(40).describe('Account the hold is lifted for.'),
  }),
  grantScope: 'credit:approve',
  maxDurationSeconds: 86_400,
});
const approvedCredit = defineTool({
  name: 'credit_grant',
  title: 'Grant credit',
  description: 'Grants credit to an account once an approver confirms. Test-only tool.',
  kind: 'write',
  mutation: 'create',
  version: '1.0.0',
  input: z.strictObject({
    account_id: z.string().min(1).max(40).describe('Account.'),
    idempotency_key: idempotencyKeySchema,
  }),
  output: z.strictObject({ granted: z.boolean() }),
  errors: [],
  scopes: ['credit:write'],
  timeoutMs: 2_000,
  examples: [],
  confirm: { when: 'always', fallback: 'operator', ask: async () => ({ message: 'Grant credit.' }) },
  handler: async () => outcome.completed({ granted: true }),
  reconcile: async () => ({ settled: true, outcome: outcome.completed({ granted: true }) }),
});

const approver: TokenSubject = {
  sub: 'approver-acme',
  tenant: 'acme',
  actor: 'operator',
  scopes: ['operations:read', 'operations:confirm', 'credit:approve'],
};
const requester: TokenSubject = {
  sub: 'rep-acme',
  tenant: 'acme',
  actor: 'support_agent',
  scopes: ['credit:write'],
};
const NUL = '\u0000';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`control characters at the operator API (${target.dialect})`, () => {
    let location: StoreLocation;
    let gw: TestGateway;
    const ledger: ParcelLedger = { reviews: [] };
    beforeAll(async () => {
      location = await target.create();
      const module = defineModule({
        name: 'credit',
        create: () => ({ tools: [...parcelTools(ledger), approvedCredit], exceptions: [creditHold] }),
      });
      gw = await startTestGateway({
        modules: [module],
        ...(location.config.databaseUrl ? { databaseUrl: location.config.databaseUrl } : {}),
        app: { backgroundJobs: false },
      });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });

    const api = operatorApi(() => gw);
    /** A 400 whose one problem names the field and the character. */
    function refusedNaming(answer: { status: number; body: Record<string, unknown> }, field: string) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.problems).toEqual([
        {
          parameter: field,
          message: expect.stringMatching(/control characters \(U\+0000 at position \d+\)/),
        },
      ]);
    }
    const count = async (table: string) =>
      Number((await gw.app.db.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);

    it('query parameters with a NUL are a 400 naming the parameter, on every list', async () => {
      for (const [path, field] of [
        [`/operator/v1/audit?subject=a${NUL}b`, 'subject'],
        [`/operator/v1/audit?operation_id=op_${NUL}`, 'operation_id'],
        [`/operator/v1/operations?tool=parcels${NUL}ship`, 'tool'],
        [`/operator/v1/operations?status=${NUL}`, 'status'],
        [`/operator/v1/exceptions?kind=${NUL}`, 'kind'],
      ] as const) {
        refusedNaming(await api(approver, 'GET', path.replace(NUL, '%00')), field);
      }
      // A cursor is opaque: one that decodes to a NUL was never given out.
      const forged = Buffer.from(`op_${NUL}`).toString('base64url');
      const cursor = await api(watcher, 'GET', `/operator/v1/operations?cursor=${forged}`);
      expect(cursor).toMatchObject({ status: 400, body: { problems: [{ parameter: 'cursor' }] } });
    });

    it('an exception reason or target with a NUL is refused field by field and nothing is stored', async () => {
      const now = gw.app.clock.now();
      const grant = {
        kind: 'credit_hold_lifted',
        target: { account_id: 'acc_1' },
        starts_at: new Date(now - 60_000).toISOString(),
        ends_at: new Date(now + 3_600_000).toISOString(),
        reason: 'Quarter-end order agreed with the account manager',
      };
      refusedNaming(
        await api(approver, 'POST', '/operator/v1/exceptions', {
          ...grant,
          reason: `Agreed ${NUL} by phone today`,
        }),
        'reason',
      );
      refusedNaming(
        await api(approver, 'POST', '/operator/v1/exceptions', {
          ...grant,
          target: { account_id: `acc${NUL}1` },
        }),
        'target.account_id',
      );
      expect(await count('granted_exceptions')).toBe(0);
      expect((await api(approver, 'POST', '/operator/v1/exceptions', grant)).status).toBe(201);
      expect(await count('granted_exceptions')).toBe(1);
    });

    it('a confirmation note or choice with a NUL is refused and the question still waits', async () => {
      const parked = await gw.callTool(requester, 'credit_grant', {
        account_id: 'acc_2',
        idempotency_key: `credit-${randomUUID()}`,
      });
      const id = parked.operation_id!;
      const path = `/operator/v1/operations/${id}/confirmation`;
      refusedNaming(await api(approver, 'POST', path, { decision: 'confirm', note: `ok${NUL}` }), 'note');
      refusedNaming(await api(approver, 'POST', path, { decision: 'confirm', choice: `a${NUL}` }), 'choice');
      expect((await gw.operation(id))?.status).toBe('awaiting_confirmation');
      // Line breaks and tabs are text a note may hold.
      expect(
        (await api(approver, 'POST', path, { decision: 'confirm', note: 'checked\n\twith the bank' })).status,
      ).toBe(200);
      expect((await gw.operation(id))?.status).toBe('completed');
    });

    it('a review note or reference with a NUL is refused and the operation stays in review', async () => {
      const envelope = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`park-${randomUUID()}`));
      (gw.app.clock as ShiftableClock).shift(600_000);
      await gw.app.operations.reconciler.runOnce();
      const id = envelope.operation_id!;
      const path = `/operator/v1/operations/${id}/resolve`;
      refusedNaming(
        await api(reviewer(), 'POST', path, { outcome: 'completed', note: `carrier ${NUL} confirmed` }),
        'note',
      );
      refusedNaming(
        await api(reviewer(), 'POST', path, {
          outcome: 'completed',
          reference: `TRK${NUL}`,
          note: 'carrier confirmed',
        }),
        'reference',
      );
      expect((await gw.operation(id))?.status).toBe('needs_review');
      expect(ledger.reviews).toEqual([]);
    });
  });
}
