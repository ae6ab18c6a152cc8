import { defineTool } from 'toolgate';
import { z } from 'zod';
import { workitemsErrors } from './workitems-errors.ts';
import { getResultSchema } from './workitems-results.ts';
import type { WorkItemsService } from './workitems-service.ts';

const input = z.strictObject({
  id: z
    .string()
    .regex(/^(drf_[0-9a-f]{24}|[A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,8})$/)
    .describe(
      'A draft id (drf_ + 24 hex, from workitems_create_draft) or a tracker item id such as "WEB-12".',
    ),
});

export function getTool(service: WorkItemsService) {
  return defineTool({
    name: 'workitems_get',
    title: 'Read a draft or work item',
    description:
      'Returns one draft or tracker work item by id. For a draft the result shows its state (draft, committing, ' +
      'committed) and, once committed, the tracker item with the state the tracker reports now; for an item id it ' +
      'returns the item and, when it was committed through this gateway, its draft. Use it to check what a commit ' +
      'produced or to read an item the user names. Do not use it to find items by text; use workitems_search. ' +
      "Needs read access to the item's project: an id in a project the caller may not read answers WORKITEM_NOT_FOUND, " +
      'exactly like an id that does not exist.',
    kind: 'read',
    version: '2.1.1',
    input,
    output: getResultSchema,
    errors: [workitemsErrors.WORKITEM_NOT_FOUND],
    scopes: ['workitems:read'],
    timeoutMs: 5_000,
    examples: [
      { title: 'Read a tracker item', input: { id: 'WEB-1' } },
      { title: 'Read a draft', input: { id: 'drf_5b1e0c9a7d3f2e4b6a8c0d1e' } },
    ],
    handler: async (args, ctx) => service.get(ctx.principal, args.id),
  });
}
