import { ExternalOutcomeUnknownError, ExternalRejectedError, FaultInjector } from '@toolgate/simulation';
import type { SqlDatabase } from 'toolgate';
import { ShiftableClock } from 'toolgate/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SimulatedTracker } from '../../../packages/domains/src/workitems/systems/tracker/simulated-tracker.ts';
import { trackerMigration } from '../../../packages/domains/src/workitems/systems/tracker/tracker-migration.ts';
import type { ItemFields } from '../../../packages/domains/src/workitems/systems/tracker/tracker-model.ts';
import { TrackerWorld } from '../../../packages/domains/src/workitems/systems/tracker/tracker-world.ts';
import { EffectsLedger, effectsLedgerMigration } from '../../../packages/simulation/src/effects-ledger.ts';
import { runMigrations } from '../../../packages/toolgate/src/store/migrations.ts';
import { openDatabase } from '../../../packages/toolgate/src/store/open-database.ts';
import { type StoreLocation, storeTargets } from '../../support/store-targets.ts';

const fields = (title: string, description = ''): ItemFields => ({
  title,
  description,
  type: 'task',
  priority: 'medium',
  labels: [],
});
const live = () => new AbortController().signal;

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`simulated tracker on ${target.dialect}`, () => {
    let location: StoreLocation;
    let db: SqlDatabase;
    const faults = new FaultInjector();
    let ledger: EffectsLedger;
    let tracker: SimulatedTracker;
    let world: TrackerWorld;

    beforeAll(async () => {
      location = await target.create();
      db = await openDatabase(location.config);
      await runMigrations(db, [effectsLedgerMigration, trackerMigration]);
      ledger = new EffectsLedger(db);
      const deps = { db, faults, ledger, clock: new ShiftableClock() };
      tracker = new SimulatedTracker(deps);
      world = new TrackerWorld(deps);
    });
    afterAll(async () => {
      await db?.close();
      await location?.dispose();
    });
    beforeEach(async () => {
      faults.clear();
      await world.reset();
      await ledger.clear();
      await world.defineProject('acme', 'IDEM', 'Idempotent', 'idempotent');
      await world.defineProject('acme', 'PLAIN', 'Unprotected', 'unprotected');
      await world.defineProject('other', 'IDEM', 'Same key, other tenant', 'idempotent');
    });

    const create = (projectKey: string, requestId: string, title = 'Fix the login page') =>
      tracker.createItem(
        { tenant: 'acme', projectKey, requestId, createdBy: 'usr_a', fields: fields(title) },
        live(),
      );

    it('numbers items per project and tenant and records each creation in the ledger', async () => {
      const a = await create('IDEM', 'req-1');
      const b = await create('IDEM', 'req-2');
      const c = await tracker.createItem(
        { tenant: 'other', projectKey: 'IDEM', requestId: 'req-1', createdBy: 'u', fields: fields('x') },
        live(),
      );
      expect([a.item.itemId, b.item.itemId, c.item.itemId]).toEqual(['IDEM-1', 'IDEM-2', 'IDEM-1']);
      const effects = await ledger.list({ system: 'tracker', action: 'create_item' });
      expect(effects.map((e) => [e.tenant, e.ref, e.requestId])).toEqual([
        ['acme', 'IDEM-1', 'req-1'],
        ['acme', 'IDEM-2', 'req-2'],
        ['other', 'IDEM-1', 'req-1'],
      ]);
    });

    it('deduplicates a repeated request id in an idempotent project', async () => {
      const first = await create('IDEM', 'req-1');
      const again = await create('IDEM', 'req-1');
      expect(again).toEqual({ item: first.item, deduplicated: true });
      expect(await ledger.list({ system: 'tracker' })).toHaveLength(1);
    });

    it('creates a second item for a repeated request id in an unprotected project', async () => {
      await create('PLAIN', 'req-1');
      const again = await create('PLAIN', 'req-1');
      expect(again.item.itemId).toBe('PLAIN-2');
      expect(await ledger.list({ system: 'tracker', action: 'create_item' })).toHaveLength(2);
    });

    it('applies, then loses the answer under drop_response_after_apply; the status query finds the item', async () => {
      faults.arm({ target: 'tracker', fault: 'drop_response_after_apply', match: { action: 'create_item' } });
      await expect(create('IDEM', 'req-lost')).rejects.toBeInstanceOf(ExternalOutcomeUnknownError);
      const status = await tracker.requestStatus('acme', 'IDEM', 'req-lost', live());
      expect(status.received && status.item.itemId).toBe('IDEM-1');
      expect(await ledger.list({ system: 'tracker' })).toHaveLength(1);
    });

    it('fences an unseen request id, so a late delivery of it is refused', async () => {
      expect(await tracker.requestStatus('acme', 'IDEM', 'req-late', live())).toEqual({ received: false });
      const late = create('IDEM', 'req-late');
      await expect(late).rejects.toBeInstanceOf(ExternalRejectedError);
      await expect(late).rejects.toMatchObject({ code: 'REQUEST_EXPIRED' });
      expect(
        await tracker.searchItems({
          tenant: 'acme',
          projectKey: 'IDEM',
          text: null,
          beforeSeq: null,
          limit: 10,
        }),
      ).toEqual([]);
      expect(await ledger.list({ system: 'tracker' })).toHaveLength(0);
    });

    it('has no status query for unprotected projects', async () => {
      await expect(tracker.requestStatus('acme', 'PLAIN', 'req-1', live())).rejects.toThrow(
        'no status query',
      );
    });

    it('applies nothing when unavailable or rejecting', async () => {
      faults.arm({ target: 'tracker', fault: 'unavailable' });
      faults.arm({
        target: 'tracker',
        fault: 'reject',
        params: { code: 'QUOTA', message: 'quota exceeded' },
      });
      await expect(create('IDEM', 'req-1')).rejects.toThrow('unavailable');
      await expect(create('IDEM', 'req-1')).rejects.toMatchObject({ code: 'QUOTA' });
      expect(await ledger.list({ system: 'tracker' })).toHaveLength(0);
      expect((await create('IDEM', 'req-1')).deduplicated).toBe(false);
    });

    it('searches newest first, literally (LIKE wildcards escaped), case-insensitively, by page', async () => {
      for (const title of ['Alpha 100% done', 'alpha beta', 'Gamma', 'ALPHA_X']) {
        await world.addItem('acme', 'IDEM', 'usr_a', fields(title));
      }
      const search = (text: string | null, beforeSeq: number | null = null, limit = 10) =>
        tracker.searchItems({ tenant: 'acme', projectKey: 'IDEM', text, beforeSeq, limit });
      expect((await search('alpha')).map((i) => i.itemId)).toEqual(['IDEM-4', 'IDEM-2', 'IDEM-1']);
      expect((await search('100%')).map((i) => i.title)).toEqual(['Alpha 100% done']);
      expect((await search('a_x')).map((i) => i.title)).toEqual(['ALPHA_X']);
      expect((await search(null, 3, 1)).map((i) => i.itemId)).toEqual(['IDEM-2']);
    });

    it('answers world actions: a person moves an item or files one by hand', async () => {
      await create('IDEM', 'req-1');
      expect(await world.simulate('set_item_state', { item_id: 'IDEM-1', state: 'resolved' })).toEqual({
        item_id: 'IDEM-1',
        state: 'resolved',
      });
      expect((await tracker.getItem('acme', 'IDEM-1'))?.state).toBe('resolved');
      await world.simulate('create_item', { project_id: 'PLAIN', title: 'Filed by hand' });
      expect((await ledger.list({ system: 'tracker' })).map((e) => e.action)).toEqual([
        'create_item',
        'set_item_state',
        'create_item_by_hand',
      ]);
      await expect(world.simulate('explode', {})).rejects.toThrow('no world action');
    });
  });
}
