import { z } from 'zod';
import { ITEM_PRIORITIES, ITEM_STATES, ITEM_TYPES } from './systems/tracker/tracker-model.ts';
import { draftViewSchema, itemViewSchema, trackerModeSchema } from './workitems-schemas.ts';

export const createDraftResultSchema = z.strictObject({
  draft: draftViewSchema.describe(
    'The draft as stored, in state draft: nothing is in the tracker yet. Show its fields to the user and ' +
      'commit it with workitems_commit only after they agree.',
  ),
  tracker_mode: trackerModeSchema,
});
export type CreateDraftResult = z.infer<typeof createDraftResultSchema>;

export const commitResultSchema = z.strictObject({
  draft_id: z
    .string()
    .describe('The draft that was committed (drf_ + 24 hex); it is now in state committed.'),
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
  item_id: z
    .string()
    .describe('Tracker item id, <PROJECT>-<number>; pass it to workitems_get for the full item.'),
  title: z.string().describe('Title as the tracker holds it now.'),
  type: z.enum(ITEM_TYPES).describe('Item type: bug, task or story.'),
  priority: z.enum(ITEM_PRIORITIES).describe('Priority: low, medium, high or urgent.'),
  state: z
    .enum(ITEM_STATES)
    .describe("The tracker's own workflow state now; people move items through it, not this gateway."),
  created_at: z.string().describe('RFC 3339 time the tracker created the item; the list is ordered by it.'),
  description_excerpt: z.string().describe('The first 160 characters of the description.'),
});

export const searchResultSchema = z.strictObject({
  project_id: z.string().describe('The project that was searched, as requested.'),
  items: z.array(itemSummarySchema).describe('Matching tracker items, newest first.'),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page.'),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
