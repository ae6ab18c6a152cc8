import { defineTool, idempotencyKeySchema } from 'toolgate';
import { z } from 'zod';
import { workitemsErrors } from './workitems-errors.ts';
import { createDraftResultSchema } from './workitems-results.ts';
import {
  descriptionSchema,
  itemTypeSchema,
  labelsSchema,
  prioritySchema,
  projectIdSchema,
  titleSchema,
} from './workitems-schemas.ts';
import type { WorkItemsService } from './workitems-service.ts';

const input = z.strictObject({
  project_id: projectIdSchema,
  title: titleSchema,
  description: descriptionSchema,
  type: itemTypeSchema,
  priority: prioritySchema,
  labels: labelsSchema,
  idempotency_key: idempotencyKeySchema,
});

export function createDraftTool(service: WorkItemsService) {
  return defineTool({
    name: 'workitems_create_draft',
    title: 'Prepare a work item draft',
    description:
      "Prepares a work item (bug, task or story) as a draft in this gateway's own store, in a project the caller " +
      'may write to. It changes nothing in the tracker: nobody sees the item until workitems_commit sends it. ' +
      'Use it when the user asks to file work, after workitems_search showed it is not filed already. ' +
      'Do not use it to edit an existing item or to commit. The result holds the draft (draft_id, state "draft") ' +
      "and the project's tracker_mode, which tells what a lost commit answer will mean for this project. " +
      'Repeating the call with the same idempotency_key returns the same draft; a new key prepares another draft. ' +
      'Project membership is decided by the server from your identity, never by arguments.',
    kind: 'write',
    mutation: 'create',
    version: '2.1.1',
    input,
    output: createDraftResultSchema,
    errors: [
      workitemsErrors.PROJECT_NOT_FOUND,
      workitemsErrors.PROJECT_ACCESS_DENIED,
      workitemsErrors.DRAFT_NOT_CREATED,
    ],
    scopes: ['workitems:write'],
    timeoutMs: 5_000,
    examples: [
      {
        title: 'Prepare a bug report',
        input: {
          project_id: 'WEB',
          title: 'Checkout button hidden behind cookie banner on small screens',
          description: 'On screens narrower than 360 px the banner covers the button; users cannot pay.',
          type: 'bug',
          priority: 'high',
          labels: ['checkout', 'mobile'],
          idempotency_key: 'draft-2f0c6a1e-checkout-banner',
        },
      },
    ],
    handler: async (args, ctx) => {
      const { project_id, idempotency_key: _key, ...fields } = args;
      return service.createDraft(ctx.principal, project_id, fields, ctx.operation);
    },
    reconcile: async (operation) => service.reconcileDraftCreation(operation),
  });
}
