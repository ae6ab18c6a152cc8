import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ShiftableClock } from 'toolgate/server';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ParcelLedger, parcelTools, reviewer, shipArgs, shipper, watcher } from './parcel-tools.ts';

const BIN = fileURLToPath(new URL('../../bin/toolgate.mjs', import.meta.url));

describe('toolgate operations review over the operator API', () => {
  let gw: TestGateway;
  const ledger: ParcelLedger = { reviews: [] };

  beforeAll(async () => {
    gw = await startTestGateway({ tools: parcelTools(ledger), app: { backgroundJobs: false } });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const run = async (token: string, args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [BIN, 'operations', 'review', '--url', gw.origin, ...args],
        { env: { ...process.env, TOOLGATE_OPERATOR_TOKEN: token, TOOLGATE_LOG_LEVEL: 'silent' } },
      );
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, stdout: failed.stdout };
    }
  };

  it('lists the queue and records a decision under the token subject, which the owner then sees', async () => {
    const parked = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`cli-${randomUUID()}`));
    (gw.app.clock as ShiftableClock).shift(600_000);
    await gw.app.operations.reconciler.runOnce();
    const id = parked.operation_id!;

    const listed = await run(await gw.tokenFor(watcher), []);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('order_id=ord_4711');
    expect(listed.stdout).not.toContain('Secret');

    const forbidden = await run(await gw.tokenFor(watcher), [
      '--resolve',
      id,
      '--as',
      'completed',
      '--note',
      'seen',
    ]);
    expect(forbidden.code).toBe(1);

    const token = await gw.tokenFor(reviewer());
    const resolved = await run(token, [
      '--resolve',
      id,
      '--as',
      'completed',
      '--note',
      'carrier scanned it',
      '--reference',
      'TRK-7',
    ]);
    expect(resolved).toEqual({ code: 0, stdout: `Resolved ${id} as completed.\n` });
    const again = await run(token, ['--resolve', id, '--as', 'completed', '--note', 'carrier scanned it']);
    expect(again.stdout.trim()).toBe(`${id} was already resolved as completed by reviewer-acme.`);
    const conflicting = await run(token, ['--resolve', id, '--as', 'rejected', '--note', 'no it did not']);
    expect(conflicting.code).toBe(1);

    expect(ledger.reviews).toHaveLength(1);
    const seen = await gw.callTool(shipper(), 'operations_get', { operation_id: id });
    expect(seen.result).toMatchObject({ status: 'completed' });
    expect(await run(token, ['--resolve', id, '--as', 'maybe', '--note', 'hmm'])).toMatchObject({ code: 2 });
  }, 60_000);
});
