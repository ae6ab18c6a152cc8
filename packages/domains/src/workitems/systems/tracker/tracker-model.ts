import { z } from 'zod';

/** The name the tracker goes by in faults, the effects ledger and the test API. */
export const TRACKER_SYSTEM = 'tracker';

/**
 * What a tracker project can do for a caller that lost a response:
 * - `idempotent`: creation is deduplicated by request id and the status of a request id can be queried;
 * - `unprotected`: neither; a repeated create makes another item and a lost response cannot be checked.
 */
export const TRACKER_MODES = ['idempotent', 'unprotected'] as const;
export type TrackerMode = (typeof TRACKER_MODES)[number];

export const ITEM_TYPES = ['bug', 'task', 'story'] as const;
export const ITEM_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
/** The tracker's own workflow; people move items through it, the gateway only creates them. */
export const ITEM_STATES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

/** What a caller sends to create an item. */
export const itemFieldsSchema = z.strictObject({
  title: z.string(),
  description: z.string(),
  type: z.enum(ITEM_TYPES),
  priority: z.enum(ITEM_PRIORITIES),
  labels: z.array(z.string()),
});
export type ItemFields = z.infer<typeof itemFieldsSchema>;

/** An item as the tracker holds it. Item ids are `<PROJECT>-<n>`, unique within a tenant. */
export const trackerItemSchema = itemFieldsSchema.extend({
  tenant: z.string(),
  itemId: z.string(),
  projectKey: z.string(),
  seq: z.number().int(),
  state: z.enum(ITEM_STATES),
  createdBy: z.string(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type TrackerItem = z.infer<typeof trackerItemSchema>;

/** Answer of the status query by request id (idempotent projects only). */
export type RequestStatus = { received: true; item: TrackerItem } | { received: false };

export interface TrackerItemRow {
  tenant: string;
  item_id: string;
  project_key: string;
  seq: number | string;
  title: string;
  description: string;
  type: string;
  priority: string;
  labels: string;
  state: string;
  created_by: string;
  created_at: number | string;
  updated_at: number | string;
}

/** Maps a stored row; the schema parse catches a row written by something that broke the rules. */
export function itemFromRow(row: TrackerItemRow): TrackerItem {
  return trackerItemSchema.parse({
    tenant: row.tenant,
    itemId: row.item_id,
    projectKey: row.project_key,
    seq: Number(row.seq),
    title: row.title,
    description: row.description,
    type: row.type,
    priority: row.priority,
    labels: JSON.parse(row.labels) as unknown,
    state: row.state,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  });
}

export const ITEM_COLUMNS =
  'tenant, item_id, project_key, seq, title, description, type, priority, labels, state, created_by, created_at, updated_at';
