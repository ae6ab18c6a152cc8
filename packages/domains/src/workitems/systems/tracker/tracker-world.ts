import { z } from 'zod';
import type { TrackerDeps } from './simulated-tracker.ts';
import { insertItem, selectItem } from './tracker-items.ts';
import {
  ITEM_PRIORITIES,
  ITEM_STATES,
  ITEM_TYPES,
  type ItemFields,
  TRACKER_SYSTEM,
  type TrackerItem,
  type TrackerMode,
} from './tracker-model.ts';

const setItemStateParams = z.strictObject({
  tenant: z.string().min(1).max(60).default('acme'),
  item_id: z.string().min(3).max(24),
  state: z.enum(ITEM_STATES),
});

const createItemParams = z.strictObject({
  tenant: z.string().min(1).max(60).default('acme'),
  project_id: z.string().min(2).max(10),
  title: z.string().min(1).max(200),
  description: z.string().max(4000).default(''),
  type: z.enum(ITEM_TYPES).default('task'),
  priority: z.enum(ITEM_PRIORITIES).default('medium'),
  created_by: z.string().min(1).max(60).default('tracker-user'),
});

/**
 * The tracker's world outside the gateway: its projects, items people create or move by hand, and the
 * world actions of POST /test-api/simulate (target `tracker`).
 */
export class TrackerWorld {
  constructor(private readonly deps: TrackerDeps) {}

  async defineProject(tenant: string, projectKey: string, name: string, mode: TrackerMode): Promise<void> {
    await this.deps.db.execute(
      `INSERT INTO ext_tracker_projects (tenant, project_key, name, mode, next_seq) VALUES (?, ?, ?, ?, 1)
       ON CONFLICT DO NOTHING`,
      [tenant, projectKey, name, mode],
    );
  }

  /**
   * An item created in the tracker directly by a person (no request id, so never deduplicated).
   * Seeding passes `recordEffect: false`: the demo world is the starting state, not an effect.
   */
  async addItem(
    tenant: string,
    projectKey: string,
    createdBy: string,
    fields: ItemFields,
    recordEffect = true,
  ): Promise<TrackerItem> {
    const at = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const item = await insertItem(tx, { tenant, projectKey, createdBy, fields, at });
      if (recordEffect) {
        await this.deps.ledger.record(
          {
            system: TRACKER_SYSTEM,
            action: 'create_item_by_hand',
            ref: item.itemId,
            tenant,
            requestId: null,
            data: { project: projectKey, title: item.title },
          },
          tx,
        );
      }
      return item;
    });
  }

  async setItemState(
    tenant: string,
    itemId: string,
    state: TrackerItem['state'],
  ): Promise<TrackerItem | null> {
    const changed = await this.deps.db.execute(
      'UPDATE ext_tracker_items SET state = ?, updated_at = ? WHERE tenant = ? AND item_id = ?',
      [state, this.deps.clock.now(), tenant, itemId],
    );
    return changed === 0 ? null : selectItem(this.deps.db, tenant, itemId);
  }

  async reset(): Promise<void> {
    for (const table of ['ext_tracker_requests', 'ext_tracker_items', 'ext_tracker_projects']) {
      await this.deps.db.execute(`DELETE FROM ${table}`);
    }
  }

  /**
   * World actions: `set_item_state` {tenant?, item_id, state} (a person moves an item) and
   * `create_item` {tenant?, project_id, title, ...} (a person files an item by hand, outside the gateway).
   * Throws on unknown actions or bad parameters; the test API reports that as a bad request.
   */
  async simulate(action: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    switch (action) {
      case 'set_item_state': {
        const p = setItemStateParams.parse(params);
        const item = await this.setItemState(p.tenant, p.item_id, p.state);
        if (!item) throw new Error(`tracker has no item ${p.item_id} in tenant ${p.tenant}`);
        await this.deps.ledger.record({
          system: TRACKER_SYSTEM,
          action: 'set_item_state',
          ref: item.itemId,
          tenant: p.tenant,
          requestId: null,
          data: { state: p.state },
        });
        return { item_id: item.itemId, state: item.state };
      }
      case 'create_item': {
        const p = createItemParams.parse(params);
        const fields = { title: p.title, description: p.description, type: p.type, priority: p.priority };
        const item = await this.addItem(p.tenant, p.project_id, p.created_by, { ...fields, labels: [] });
        return { item_id: item.itemId, state: item.state };
      }
      default:
        throw new Error(`tracker has no world action ${action}; use set_item_state or create_item`);
    }
  }
}
