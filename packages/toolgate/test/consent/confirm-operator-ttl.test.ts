import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulationExtension } from '@toolgate/simulation';
import { afterAll, describe, expect, it } from 'vitest';
import { executions, testDomain } from '../../../../test/support/test-domain.ts';
import { resolveServeConfig } from '../../src/cli/serve-options.ts';
import { startTestGateway } from '../../src/testing/test-gateway.ts';
import { ShiftableClock } from '../../src/time/clock.ts';

const ALICE = { sub: 'alice', tenant: 'tenant-a', actor: 'customer', scopes: ['testing:write'] } as const;

describe('how long a call waits for an approver', () => {
  const parent = mkdtempSync(join(tmpdir(), 'toolgate-approval-ttl-'));
  const dataDir = join(parent, 'data');
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('--operator-confirmation-ttl-seconds: from the file, the variable or the flag, within 60 s and a year', () => {
    const ttl = (raw: Record<string, string>, file: Record<string, number> = {}) =>
      resolveServeConfig({ dataDir, ...raw }, file).operatorConfirmationTtlSeconds;
    expect(ttl({})).toBeUndefined();
    expect(ttl({}, { operatorConfirmationTtlSeconds: 600 })).toBe(600);
    process.env.TOOLGATE_OPERATOR_CONFIRMATION_TTL_SECONDS = '3600';
    try {
      expect(ttl({}, { operatorConfirmationTtlSeconds: 600 })).toBe(3600);
      expect(ttl({ operatorConfirmationTtlSeconds: '7200' }, { operatorConfirmationTtlSeconds: 600 })).toBe(
        7200,
      );
    } finally {
      delete process.env.TOOLGATE_OPERATOR_CONFIRMATION_TTL_SECONDS;
    }
    for (const value of ['59', '31536001', 'a week']) {
      expect(() => ttl({ operatorConfirmationTtlSeconds: value })).toThrow(
        `--operator-confirmation-ttl-seconds ${value}: must be an integer from 60 to 31536000`,
      );
    }
  });

  it('a gateway configured for 120 s rejects a question unanswered after 120 s, and ran nothing', async () => {
    const clock = new ShiftableClock();
    const gw = await startTestGateway({
      extensions: [simulationExtension],
      modules: [testDomain()],
      app: { backgroundJobs: false, clock, operatorConfirmationTtlSeconds: 120 },
    });
    try {
      const args = { account: 'acc-1', amount: 5_000, idempotency_key: 'approve-ttl-00000001' };
      const parked = await gw.callTool(ALICE, 'testing_credit_approved', args);
      expect(parked).toMatchObject({ status: 'in_progress', code: 'CONFIRMATION_PENDING' });
      const id = parked.operation_id!;
      const [row] = await gw.app.db.query<{ asked_at: number; expires_at: number }>(
        'SELECT asked_at, expires_at FROM operator_confirmations WHERE operation_id = ?',
        [id],
      );
      expect(Number(row!.expires_at) - Number(row!.asked_at)).toBe(120_000);
      clock.shift(119_000);
      expect(await gw.callTool(ALICE, 'testing_credit_approved', args)).toMatchObject({
        status: 'in_progress',
        operation_id: id,
      });
      clock.shift(2_000);
      expect(await gw.callTool(ALICE, 'testing_credit_approved', args)).toMatchObject({
        status: 'rejected',
        code: 'CONFIRMATION_EXPIRED',
        operation_id: id,
      });
      expect((await gw.operation(id))?.status).toBe('rejected');
      expect(await executions(gw.app.db, 'execute')).toEqual([]);
    } finally {
      await gw.close();
    }
  });
});
