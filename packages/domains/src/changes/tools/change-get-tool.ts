import { defineTool, outcome } from 'toolgate';
import { z } from 'zod';
import { changeErrors } from '../change-errors.ts';
import { changeIdSchema } from '../change-schemas.ts';
import type { ChangeService } from '../change-service.ts';
import { changeDetail, changeDetailSchema, isPlatformReadFailure } from '../change-views.ts';
import { CHANGE_PLATFORM } from '../systems/change-platform/change-record.ts';

/** change_get: one change of the caller's organisation, with its plans and current state. */
export function changeGetTool(service: ChangeService) {
  return defineTool({
    name: 'change_get',
    title: 'Get a change request',
    description: [
      'Returns one change request of your organisation by its id: service, environment, summary, state, effective risk, approval group, schedule, both plans and who requested it.',
      'Use it to check the state of a change you created or were given an id for (for example whether it is still pending approval).',
      'Do not use it to find changes by service or text (use change_search) or to create or modify one (it changes nothing).',
      'Only complete changes exist for this tool: a creation still in progress is not visible.',
    ].join(' '),
    kind: 'read',
    externalSystems: [CHANGE_PLATFORM],
    version: '1.1.1',
    input: z.strictObject({ change_id: changeIdSchema }),
    output: changeDetailSchema,
    errors: [changeErrors.CHANGE_NOT_FOUND],
    scopes: ['changes:read'],
    timeoutMs: 5_000,
    examples: [{ title: 'Check a change', input: { change_id: 'CHG-10428' } }],
    async handler(input, ctx) {
      try {
        const record = await service.platform.getChange(ctx.principal.tenant, input.change_id, ctx.signal);
        if (!record) {
          return outcome.rejected('CHANGE_NOT_FOUND', `No change ${input.change_id} is visible to you.`, {
            resolution: 'Check the id with the user, or find the change with change_search; never guess ids.',
          });
        }
        return outcome.completed(changeDetail(record));
      } catch (error) {
        if (!isPlatformReadFailure(error)) throw error;
        return outcome.failed('DEPENDENCY_UNAVAILABLE', 'The change platform did not answer.', {
          resolution: 'Retry in a moment.',
        });
      }
    },
  });
}
