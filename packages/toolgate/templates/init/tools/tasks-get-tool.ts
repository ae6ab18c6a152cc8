import { backendOutcome, defineTool, type HttpBackend, outcome } from 'toolgate';
import { z } from 'zod';
import { taskErrors } from './task-errors.ts';
import { ownerOf, taskResponse, taskView } from './task-wire.ts';

/** tasks_get: one task of the caller, read from the tasks service. */
export function tasksGetTool(backend: HttpBackend) {
  return defineTool({
    name: 'tasks_get',
    title: 'Read a task',
    description:
      "Returns one of the user's tasks by id: its title and when it was created. Use it to check a task " +
      'exists before talking about it. Do not use it to create a task; use tasks_create. Unknown ids answer ' +
      'TASK_NOT_FOUND.',
    kind: 'read',
    externalSystems: ['tasks'],
    version: '1.0.0',
    input: z.strictObject({
      task_id: z
        .string()
        .regex(/^task_[0-9]{1,12}$/)
        .describe('The task id tasks_create answered, e.g. task_1.'),
    }),
    output: taskView,
    errors: [taskErrors.TASK_NOT_FOUND],
    scopes: ['tasks:read'],
    timeoutMs: 5_000,
    examples: [{ title: 'Read the first task', input: { task_id: 'task_1' } }],
    async handler(input, ctx) {
      const result = await backend.call(ctx, {
        method: 'GET',
        path: '/tasks/{task_id}',
        params: { task_id: input.task_id },
        query: ownerOf(ctx.principal),
        response: taskResponse,
        rejections: {
          404: {
            code: taskErrors.TASK_NOT_FOUND.code,
            message: `No task ${input.task_id} belongs to this user.`,
            resolution: 'Ask the user which task they mean; do not guess ids.',
          },
        },
      });
      return backendOutcome(
        result,
        (task) =>
          outcome.completed({ task_id: task.task_id, title: task.title, created_at: task.created_at }),
        { system: 'the tasks service', correlationId: ctx.correlationId, log: ctx.log },
      );
    },
  });
}
