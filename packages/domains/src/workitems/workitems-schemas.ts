import { textSchema } from 'toolgate';
import { z } from 'zod';
import { ITEM_PRIORITIES, ITEM_STATES, ITEM_TYPES, TRACKER_MODES } from './systems/tracker/tracker-model.ts';

export const PROJECT_ID_PATTERN = /^[A-Z][A-Z0-9]{1,9}$/;
export const DRAFT_ID_PATTERN = /^drf_[0-9a-f]{24}$/;
export const ITEM_ID_PATTERN = /^([A-Z][A-Z0-9]{1,9})-([1-9][0-9]{0,8})$/;

export const projectIdSchema = z
  .string()
  .regex(PROJECT_ID_PATTERN)
  .describe(
    'Tracker project key, 2-10 upper-case letters or digits starting with a letter (for example "WEB"). ' +
      'Use the key the user named; never invent one.',
  );

export const titleSchema = textSchema({ min: 3, max: 200 }).describe(
  'One-line summary of the work, 3-200 characters after trimming; no control or bidirectional characters.',
);

export const descriptionSchema = textSchema({ min: 0, max: 8000, multiline: true })
  .default('')
  .describe(
    'What needs doing and why, up to 8000 characters (default empty). Plain text or Markdown; line breaks and tabs are fine, other control characters are not.',
  );

export const itemTypeSchema = z
  .enum(ITEM_TYPES)
  .default('task')
  .describe('bug: something broken; task: a piece of work; story: a user-facing feature (default task).');

export const prioritySchema = z.enum(ITEM_PRIORITIES).default('medium').describe('Default medium.');

export const labelsSchema = z
  .array(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,29}$/)
      .describe('Lower-case letters, digits and hyphens, 1-30 characters.'),
  )
  .max(10)
  .default([])
  .describe('Up to 10 labels (default none).');

export const trackerModeSchema = z
  .enum(TRACKER_MODES)
  .describe(
    "The project's tracker: idempotent = it deduplicates creation by request id and can be asked whether a " +
      'request arrived; unprotected = neither, so a lost response can only be settled by a person.',
  );

export const DRAFT_STATES = ['draft', 'committing', 'committed'] as const;
export type DraftState = (typeof DRAFT_STATES)[number];

export const draftViewSchema = z.strictObject({
  draft_id: z.string().describe('Draft id (drf_ + 24 hex).'),
  project_id: z.string().describe('Project key the draft will be committed to (for example "WEB").'),
  title: z
    .string()
    .describe('Title exactly as it will be sent to the tracker; show it to the user before a commit.'),
  description: z
    .string()
    .describe('Description exactly as it will be sent to the tracker; empty when none was given.'),
  type: z.enum(ITEM_TYPES).describe('Item type the commit will create: bug, task or story.'),
  priority: z.enum(ITEM_PRIORITIES).describe('Priority the commit will set: low, medium, high or urgent.'),
  labels: z.array(z.string()).describe('Labels the commit will set, in the order given; empty for none.'),
  state: z
    .enum(DRAFT_STATES)
    .describe(
      'draft: not in the tracker; committing: a commit was sent and its outcome is not yet established ' +
        '(see commit_operation_id); committed: the tracker holds it as item_id.',
    ),
  created_by: z.string().describe('Subject of the principal that prepared the draft.'),
  created_at: z.string().describe('RFC 3339 time the draft was prepared.'),
  commit_operation_id: z
    .string()
    .nullable()
    .describe(
      'The workitems_commit operation in flight or done; while committing, ask operations_get. Null before any commit.',
    ),
  item_id: z.string().nullable().describe('The tracker item this draft became, once committed.'),
});
export type DraftView = z.infer<typeof draftViewSchema>;

export const itemViewSchema = z.strictObject({
  item_id: z.string().describe('Tracker item id, <PROJECT>-<number>.'),
  project_id: z.string().describe('Project key the item belongs to (the <PROJECT> part of item_id).'),
  title: z.string().describe('Title as the tracker holds it now.'),
  description: z.string().describe('Description as the tracker holds it now; empty when it has none.'),
  type: z.enum(ITEM_TYPES).describe('Item type in the tracker: bug, task or story.'),
  priority: z.enum(ITEM_PRIORITIES).describe('Priority in the tracker now: low, medium, high or urgent.'),
  labels: z.array(z.string()).describe('Labels in the tracker now; empty for none.'),
  state: z.enum(ITEM_STATES).describe("The tracker's own workflow state, as the tracker reports it now."),
  created_at: z.string().describe('RFC 3339 time the tracker created the item.'),
  updated_at: z.string().describe('RFC 3339 time of the last change in the tracker.'),
});
export type ItemView = z.infer<typeof itemViewSchema>;
