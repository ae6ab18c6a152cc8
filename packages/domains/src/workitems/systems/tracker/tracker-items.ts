import type { SqlExecutor } from 'toolgate';
import {
  ITEM_COLUMNS,
  type ItemFields,
  itemFromRow,
  type TrackerItem,
  type TrackerItemRow,
} from './tracker-model.ts';

export interface NewItem {
  readonly tenant: string;
  readonly projectKey: string;
  readonly createdBy: string;
  readonly fields: ItemFields;
  readonly at: number;
}

/**
 * Allocates the project's next number and stores the item. The counter update locks the project row,
 * so concurrent creations in one project get distinct numbers on both databases.
 */
export async function insertItem(tx: SqlExecutor, item: NewItem): Promise<TrackerItem> {
  const [counter] = await tx.query<{ seq: number | string }>(
    'UPDATE ext_tracker_projects SET next_seq = next_seq + 1 WHERE tenant = ? AND project_key = ? RETURNING next_seq - 1 AS seq',
    [item.tenant, item.projectKey],
  );
  if (!counter) throw new Error(`tracker project ${item.tenant}/${item.projectKey} does not exist`);
  const seq = Number(counter.seq);
  const itemId = `${item.projectKey}-${seq}`;
  const { title, description, type, priority, labels } = item.fields;
  await tx.execute(
    `INSERT INTO ext_tracker_items (${ITEM_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)`,
    [
      item.tenant,
      itemId,
      item.projectKey,
      seq,
      title,
      description,
      type,
      priority,
      JSON.stringify(labels),
      item.createdBy,
      item.at,
      item.at,
    ],
  );
  return {
    ...item.fields,
    tenant: item.tenant,
    itemId,
    projectKey: item.projectKey,
    seq,
    state: 'open',
    createdBy: item.createdBy,
    createdAt: item.at,
    updatedAt: item.at,
  };
}

export async function selectItem(
  db: SqlExecutor,
  tenant: string,
  itemId: string,
): Promise<TrackerItem | null> {
  const [row] = await db.query<TrackerItemRow & Record<string, unknown>>(
    `SELECT ${ITEM_COLUMNS} FROM ext_tracker_items WHERE tenant = ? AND item_id = ?`,
    [tenant, itemId],
  );
  return row ? itemFromRow(row) : null;
}

export interface ItemSearch {
  readonly tenant: string;
  readonly projectKey: string;
  /** Case-insensitive substring of the title or description; null matches every item. */
  readonly text: string | null;
  /** Only items numbered below this (the previous page's last number); null for the first page. */
  readonly beforeSeq: number | null;
  readonly limit: number;
}

/** Newest first; `text` is matched literally (LIKE wildcards in it are escaped). */
export async function searchItems(db: SqlExecutor, search: ItemSearch): Promise<TrackerItem[]> {
  // CAST keeps SQLite (STAT4) from re-preparing this ordered statement on every call.
  const where = ['tenant = CAST(? AS TEXT)', 'project_key = CAST(? AS TEXT)'];
  const params: unknown[] = [search.tenant, search.projectKey];
  if (search.text !== null) {
    const pattern = `%${search.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      "(LOWER(title) LIKE CAST(? AS TEXT) ESCAPE '\\' OR LOWER(description) LIKE CAST(? AS TEXT) ESCAPE '\\')",
    );
    params.push(pattern, pattern);
  }
  if (search.beforeSeq !== null) {
    where.push('seq < ?');
    params.push(search.beforeSeq);
  }
  params.push(search.limit);
  const rows = await db.query<TrackerItemRow & Record<string, unknown>>(
    `SELECT ${ITEM_COLUMNS} FROM ext_tracker_items WHERE ${where.join(' AND ')} ORDER BY seq DESC
     LIMIT CAST(? AS INTEGER)`,
    params,
  );
  return rows.map(itemFromRow);
}
