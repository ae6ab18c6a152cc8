import type { EffectsLedger, FaultInjector } from '@toolgate/simulation';
import { ExternalRejectedError, throughFaults } from '@toolgate/simulation';
import type { Clock, SqlDatabase, SqlExecutor } from 'toolgate';
import { type ItemSearch, insertItem, searchItems, selectItem } from './tracker-items.ts';
import {
  type ItemFields,
  type RequestStatus,
  TRACKER_SYSTEM,
  type TrackerItem,
  type TrackerMode,
} from './tracker-model.ts';

export interface TrackerDeps {
  readonly db: SqlDatabase;
  readonly faults: FaultInjector;
  readonly ledger: EffectsLedger;
  readonly clock: Clock;
}

export interface CreateItemRequest {
  readonly tenant: string;
  readonly projectKey: string;
  /** The caller's operation id. Idempotent projects deduplicate on it; unprotected ones ignore it. */
  readonly requestId: string;
  readonly createdBy: string;
  readonly fields: ItemFields;
}

export interface CreatedItem {
  readonly item: TrackerItem;
  /** True when an idempotent project had already applied this request id and returned that item. */
  readonly deduplicated: boolean;
}

/**
 * The work tracker the workitems domain commits to: a system we do not own. Its two consequential
 * calls pass through the armed faults (target `tracker`, actions `create_item` and `query_request`);
 * every item it creates is recorded in the effects ledger.
 */
export class SimulatedTracker {
  constructor(private readonly deps: TrackerDeps) {}

  /** The project's capabilities, or null when the tracker has no such project. */
  async mode(tenant: string, projectKey: string): Promise<TrackerMode | null> {
    return projectMode(this.deps.db, tenant, projectKey);
  }

  async createItem(request: CreateItemRequest, signal: AbortSignal): Promise<CreatedItem> {
    const { tenant, projectKey } = request;
    const call = { action: 'create_item', attributes: { tenant, project: projectKey } };
    return throughFaults(this.deps.faults, TRACKER_SYSTEM, call, signal, () =>
      this.deps.db.transaction((tx) => this.#applyCreate(tx, request)),
    );
  }

  /**
   * The status query by request id, for idempotent projects. A request id the tracker has not seen is
   * fenced: answering "not received" is final, and a late delivery of that request is refused.
   */
  async requestStatus(
    tenant: string,
    projectKey: string,
    requestId: string,
    signal: AbortSignal,
  ): Promise<RequestStatus> {
    const call = { action: 'query_request', attributes: { tenant, project: projectKey } };
    return throughFaults(this.deps.faults, TRACKER_SYSTEM, call, signal, () =>
      this.deps.db.transaction(async (tx): Promise<RequestStatus> => {
        if ((await projectMode(tx, tenant, projectKey)) !== 'idempotent') {
          throw new Error(`tracker project ${tenant}/${projectKey} has no status query by request id`);
        }
        const fenced = await tx.query(
          `INSERT INTO ext_tracker_requests (tenant, request_id, project_key, state, item_id, at)
           VALUES (?, ?, ?, 'fenced', NULL, ?) ON CONFLICT DO NOTHING RETURNING request_id`,
          [tenant, requestId, projectKey, this.deps.clock.now()],
        );
        if (fenced.length > 0) return { received: false };
        const [seen] = await tx.query<{ state: string; item_id: string | null }>(
          'SELECT state, item_id FROM ext_tracker_requests WHERE tenant = ? AND request_id = ?',
          [tenant, requestId],
        );
        const item = seen?.item_id ? await selectItem(tx, tenant, seen.item_id) : null;
        return item ? { received: true, item } : { received: false };
      }),
    );
  }

  async getItem(tenant: string, itemId: string): Promise<TrackerItem | null> {
    return selectItem(this.deps.db, tenant, itemId);
  }

  async searchItems(search: ItemSearch): Promise<TrackerItem[]> {
    return searchItems(this.deps.db, search);
  }

  async #applyCreate(tx: SqlExecutor, request: CreateItemRequest): Promise<CreatedItem> {
    const { tenant, projectKey, requestId } = request;
    const mode = await projectMode(tx, tenant, projectKey);
    if (mode === null) {
      throw new ExternalRejectedError(TRACKER_SYSTEM, 'PROJECT_UNKNOWN', `no tracker project ${projectKey}`);
    }
    const at = this.deps.clock.now();
    if (mode === 'idempotent') {
      const claimed = await tx.query(
        `INSERT INTO ext_tracker_requests (tenant, request_id, project_key, state, item_id, at)
         VALUES (?, ?, ?, 'applied', NULL, ?) ON CONFLICT DO NOTHING RETURNING request_id`,
        [tenant, requestId, projectKey, at],
      );
      if (claimed.length === 0) return this.#earlierAnswer(tx, tenant, requestId);
    }
    const item = await insertItem(tx, {
      tenant,
      projectKey,
      createdBy: request.createdBy,
      fields: request.fields,
      at,
    });
    if (mode === 'idempotent') {
      await tx.execute('UPDATE ext_tracker_requests SET item_id = ? WHERE tenant = ? AND request_id = ?', [
        item.itemId,
        tenant,
        requestId,
      ]);
    }
    // The judge's record of what really happened; it names the request id sent, in both modes.
    await this.deps.ledger.record(
      {
        system: TRACKER_SYSTEM,
        action: 'create_item',
        ref: item.itemId,
        tenant,
        requestId,
        data: { project: projectKey, title: item.title, mode },
      },
      tx,
    );
    return { item, deduplicated: false };
  }

  async #earlierAnswer(tx: SqlExecutor, tenant: string, requestId: string): Promise<CreatedItem> {
    const [seen] = await tx.query<{ state: string; item_id: string | null }>(
      'SELECT state, item_id FROM ext_tracker_requests WHERE tenant = ? AND request_id = ?',
      [tenant, requestId],
    );
    const item = seen?.item_id ? await selectItem(tx, tenant, seen.item_id) : null;
    if (!item) {
      throw new ExternalRejectedError(
        TRACKER_SYSTEM,
        'REQUEST_EXPIRED',
        'the tracker already answered that this request id was never received, so it will not apply it now',
      );
    }
    return { item, deduplicated: true };
  }
}

export async function projectMode(
  db: SqlExecutor,
  tenant: string,
  projectKey: string,
): Promise<TrackerMode | null> {
  const [row] = await db.query<{ mode: TrackerMode }>(
    'SELECT mode FROM ext_tracker_projects WHERE tenant = ? AND project_key = ?',
    [tenant, projectKey],
  );
  return row?.mode ?? null;
}
