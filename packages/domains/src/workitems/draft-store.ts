import type { SqlExecutor } from 'toolgate';
import type { ItemFields } from './systems/tracker/tracker-model.ts';
import type { DraftState } from './workitems-schemas.ts';

/** A draft as our store holds it: prepared here, committed to the tracker later. */
export interface Draft {
  readonly draftId: string;
  readonly tenant: string;
  readonly projectId: string;
  readonly fields: ItemFields;
  readonly contentHash: string;
  readonly state: DraftState;
  readonly createdBy: string;
  readonly createdAt: number;
  readonly commitOperationId: string | null;
  readonly commitStartedAt: number | null;
  readonly itemId: string | null;
  readonly committedAt: number | null;
}

interface DraftRow extends Record<string, unknown> {
  draft_id: string;
  tenant: string;
  project_id: string;
  title: string;
  description: string;
  type: ItemFields['type'];
  priority: ItemFields['priority'];
  labels: string;
  content_hash: string;
  state: DraftState;
  created_by: string;
  created_at: number | string;
  commit_operation_id: string | null;
  commit_started_at: number | string | null;
  item_id: string | null;
  committed_at: number | string | null;
}

const COLUMNS =
  'draft_id, tenant, project_id, title, description, type, priority, labels, content_hash, state, created_by, created_at, commit_operation_id, commit_started_at, item_id, committed_at';

const orNull = (v: number | string | null) => (v === null ? null : Number(v));

function fromRow(row: DraftRow): Draft {
  return {
    draftId: row.draft_id,
    tenant: row.tenant,
    projectId: row.project_id,
    fields: {
      title: row.title,
      description: row.description,
      type: row.type,
      priority: row.priority,
      labels: JSON.parse(row.labels) as string[],
    },
    contentHash: row.content_hash,
    state: row.state,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    commitOperationId: row.commit_operation_id,
    commitStartedAt: orNull(row.commit_started_at),
    itemId: row.item_id,
    committedAt: orNull(row.committed_at),
  };
}

/**
 * Drafts in our store. State changes are compare-and-set on the current state and operation, so two
 * deliveries can never both move one draft into the tracker.
 */
export const draftStore = {
  async insert(db: SqlExecutor, draft: Draft, createOperationId: string | null): Promise<void> {
    const { title, description, type, priority, labels } = draft.fields;
    await db.execute(
      `INSERT INTO workitems_drafts (${COLUMNS}, create_operation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        draft.draftId,
        draft.tenant,
        draft.projectId,
        title,
        description,
        type,
        priority,
        JSON.stringify(labels),
        draft.contentHash,
        draft.state,
        draft.createdBy,
        draft.createdAt,
        draft.commitOperationId,
        draft.commitStartedAt,
        draft.itemId,
        draft.committedAt,
        createOperationId,
      ],
    );
  },

  async find(db: SqlExecutor, tenant: string, draftId: string): Promise<Draft | null> {
    return one(db, 'tenant = ? AND draft_id = ?', [tenant, draftId]);
  },

  async findByCreateOperation(db: SqlExecutor, tenant: string, operationId: string): Promise<Draft | null> {
    return one(db, 'tenant = ? AND create_operation_id = ?', [tenant, operationId]);
  },

  async findByCommitOperation(db: SqlExecutor, tenant: string, operationId: string): Promise<Draft | null> {
    return one(db, 'tenant = ? AND commit_operation_id = ?', [tenant, operationId]);
  },

  async findByItem(db: SqlExecutor, tenant: string, itemId: string): Promise<Draft | null> {
    return one(db, 'tenant = ? AND item_id = ?', [tenant, itemId]);
  },

  // The ordered lookups CAST their keys: with plain `?` SQLite (STAT4) re-prepares them on every call.

  /** The most recent other draft of the same content whose commit started at or after `since`. */
  async recentSameContent(db: SqlExecutor, draft: Draft, since: number): Promise<Draft | null> {
    return one(
      db,
      `tenant = CAST(? AS TEXT) AND project_id = CAST(? AS TEXT) AND content_hash = CAST(? AS TEXT)
       AND draft_id <> ? AND state IN ('committing', 'committed') AND commit_started_at >= ?
       ORDER BY commit_started_at DESC`,
      [draft.tenant, draft.projectId, draft.contentHash, draft.draftId, since],
    );
  },

  /** Another draft of the same content whose commit has no established outcome, however old. */
  async sameContentCommitting(db: SqlExecutor, draft: Draft): Promise<Draft | null> {
    return one(
      db,
      `tenant = CAST(? AS TEXT) AND project_id = CAST(? AS TEXT) AND content_hash = CAST(? AS TEXT)
       AND draft_id <> ? AND state = 'committing' ORDER BY commit_started_at DESC`,
      [draft.tenant, draft.projectId, draft.contentHash, draft.draftId],
    );
  },

  /** draft -> committing under this operation; false when the draft was not in state draft. */
  async markCommitting(db: SqlExecutor, draft: Draft, operationId: string, at: number): Promise<boolean> {
    const changed = await db.execute(
      `UPDATE workitems_drafts SET state = 'committing', commit_operation_id = ?, commit_started_at = ?
       WHERE tenant = ? AND draft_id = ? AND state = 'draft'`,
      [operationId, at, draft.tenant, draft.draftId],
    );
    return changed === 1;
  },

  async markCommitted(
    db: SqlExecutor,
    tenant: string,
    operationId: string,
    itemId: string,
    at: number,
  ): Promise<void> {
    await db.execute(
      `UPDATE workitems_drafts SET state = 'committed', item_id = ?, committed_at = ?
       WHERE tenant = ? AND commit_operation_id = ? AND state = 'committing'`,
      [itemId, at, tenant, operationId],
    );
  },

  /** committing -> draft, only when the tracker provably created nothing for this operation. */
  async release(db: SqlExecutor, tenant: string, operationId: string): Promise<void> {
    await db.execute(
      `UPDATE workitems_drafts SET state = 'draft', commit_operation_id = NULL, commit_started_at = NULL
       WHERE tenant = ? AND commit_operation_id = ? AND state = 'committing'`,
      [tenant, operationId],
    );
  },

  async clear(db: SqlExecutor): Promise<void> {
    await db.execute('DELETE FROM workitems_drafts');
  },
};

async function one(db: SqlExecutor, where: string, params: unknown[]): Promise<Draft | null> {
  const [row] = await db.query<DraftRow>(
    `SELECT ${COLUMNS} FROM workitems_drafts WHERE ${where} LIMIT 1`,
    params,
  );
  return row ? fromRow(row) : null;
}
