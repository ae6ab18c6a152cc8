import { z } from 'zod';
import { ITEM_PRIORITIES, ITEM_STATES, ITEM_TYPES } from '../../external/tracker/tracker-model.ts';
import { draftViewSchema, itemViewSchema, trackerModeSchema } from './workitems-schemas.ts';

export const createDraftResultSchema = z.strictObject({
  draft: draftViewSchema,
  tracker_mode: trackerModeSchema,
});
export type CreateDraftResult = z.infer<typeof createDraftResultSchema>;

export const commitResultSchema = z.strictObject({
  draft_id: z.string(),
  item: itemViewSchema.describe('The item as the tracker created it.'),
  tracker_mode: trackerModeSchema,
});
export type CommitResult = z.infer<typeof commitResultSchema>;

export const getResultSchema = z.strictObject({
  found: z.enum(['draft', 'item']).describe('Whether the id named a draft or a tracker item.'),
  draft: draftViewSchema
    .nullable()
    .describe('The draft, when the id is a draft or the item was committed from one through this gateway.'),
  item: itemViewSchema
    .nullable()
    .describe('The tracker item with its current tracker state; null for a draft not yet committed.'),
  tracker_mode: trackerModeSchema,
});
export type GetResult = z.infer<typeof getResultSchema>;

export const itemSummarySchema = z.strictObject({
  item_id: z.string(),
  title: z.string(),
  type: z.enum(ITEM_TYPES),
  priority: z.enum(ITEM_PRIORITIES),
  state: z.enum(ITEM_STATES),
  created_at: z.string(),
  description_excerpt: z.string().describe('The first 160 characters of the description.'),
});

export const searchResultSchema = z.strictObject({
  project_id: z.string(),
  items: z.array(itemSummarySchema).describe('Matching tracker items, newest first.'),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
