import { cursorSchema, defineTool, pageSizeSchema, textSchema } from 'toolgate';
import { z } from 'zod';
import { workitemsErrors } from './workitems-errors.ts';
import { searchResultSchema } from './workitems-results.ts';
import { projectIdSchema } from './workitems-schemas.ts';
import type { WorkItemsService } from './workitems-service.ts';

const input = z.strictObject({
  project_id: projectIdSchema,
  text: textSchema({ min: 2, max: 200 })
    .optional()
    .describe(
      'Words to look for in titles and descriptions, 2-200 characters, case-insensitive; omit to list all.',
    ),
  page_size: pageSizeSchema(50, 10),
  cursor: cursorSchema.optional(),
});

export function searchTool(service: WorkItemsService) {
  return defineTool({
    name: 'workitems_search',
    title: 'Find work items in a project',
    description:
      "Finds existing items in one project's tracker whose title or description contains the text " +
      '(case-insensitive), newest first, at most 50 per page. Use it before preparing a new item, to check whether ' +
      'the work is already filed, and to find the id of an item the user describes. Do not use it to read one known ' +
      'item (use workitems_get). Drafts not yet committed are not included. Each result has item_id, title, type, ' +
      'priority, tracker state, creation time and a description excerpt; pass next_cursor as cursor for the next page. ' +
      'Needs read access to the project; a project the caller may not read answers PROJECT_NOT_FOUND, exactly like ' +
      'one that does not exist.',
    kind: 'read',
    version: '2.1.1',
    input,
    output: searchResultSchema,
    errors: [workitemsErrors.PROJECT_NOT_FOUND],
    scopes: ['workitems:read'],
    timeoutMs: 5_000,
    examples: [
      { title: 'Check for an existing report', input: { project_id: 'WEB', text: 'checkout button' } },
      { title: 'List the newest items', input: { project_id: 'OPS', page_size: 20 } },
    ],
    handler: async (args, ctx) =>
      service.search(ctx.principal, {
        projectId: args.project_id,
        text: args.text ?? null,
        pageSize: args.page_size,
        cursor: args.cursor ?? null,
      }),
  });
}
