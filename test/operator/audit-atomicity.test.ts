import { randomUUID } from 'node:crypto';
import { startTestGateway, type TestGateway } from 'toolgate/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StoreLocation, storeTargets } from '../support/store-targets.ts';
import { parcelTools, shipArgs, shipper } from './parcel-tools.ts';

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`a call's audit entry and its settlement on ${target.dialect}`, () => {
    let location: StoreLocation;
    let gw: TestGateway;

    beforeAll(async () => {
      location = await target.create();
      gw = await startTestGateway({
        tools: parcelTools({ reviews: [] }),
        ...(location.config.databaseUrl ? { databaseUrl: location.config.databaseUrl } : {}),
        app: { backgroundJobs: false },
      });
    });
    afterAll(async () => {
      await gw?.close();
      await location?.dispose();
    });

    it('commit together: an executed write is settled with its entry, or neither is stored', async () => {
      const written = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`atomic-${randomUUID()}`));
      const entries = await gw.app.db.query('SELECT action, status FROM audit_log WHERE operation_id = ?', [
        written.operation_id,
      ]);
      expect(entries).toEqual([{ action: 'parcels_ship', status: 'outcome_unknown' }]);
      expect((await gw.operation(written.operation_id!))?.status).toBe('outcome_unknown');

      await gw.app.db.execute('ALTER TABLE audit_log RENAME TO audit_log_away');
      try {
        const unaudited = await gw.callTool(shipper(), 'parcels_ship', shipArgs(`atomic-${randomUUID()}`));
        // The caller still gets the outcome; the record was not settled without its audit entry, so it
        // stays in progress until its lease runs out and the reconciler settles (and audits) it.
        expect(unaudited.status).toBe('outcome_unknown');
        expect((await gw.operation(unaudited.operation_id!))?.status).toBe('in_progress');
      } finally {
        await gw.app.db.execute('ALTER TABLE audit_log_away RENAME TO audit_log');
      }
    });
  });
}
