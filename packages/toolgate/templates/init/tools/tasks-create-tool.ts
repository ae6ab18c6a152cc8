import {
  backendOutcome,
  defineTool,
  type HttpBackend,
  idempotencyKeySchema,
  outcome,
  textSchema,
} from 'toolgate';
import { z } from 'zod';
import { taskErrors } from './task-errors.ts';
import { appliedKeyResponse, ownerOf, taskResponse, taskView } from './task-wire.ts';

/** tasks_create: creates one task for the caller, once per idempotency key. */
export function tasksCreateTool(backend: HttpBackend) {
  return defineTool({
    name: 'tasks_create',
    title: 'Create a task',
    description:
      'Creates one task for the user in the tasks service and answers its id. Do not use it to read a task; ' +
      'use tasks_get. On outcome_unknown, poll operations_get or retry with the same idempotency_key; never ' +
      'send it again with a new key, or the user may get the task twice.',
    kind: 'write',
    mutation: 'create',
    externalSystems: ['tasks'],
    version: '1.0.0',
    input: z.strictObject({
      title: textSchema({ min: 1, max: 200 }).describe('What the task is about, one line.'),
      idempotency_key: idempotencyKeySchema,
    }),
    output: taskView,
    errors: [taskErrors.TASK_NOT_CREATED],
    scopes: ['tasks:write'],
    timeoutMs: 8_000,
    examples: [
      {
        title: 'Create a task',
        input: { title: 'Call the plumber', idempotency_key: 'task-create-7f3a9c2e41d8' },
      },
    ],
    async handler(input, ctx) {
      // The kit sends ctx.operation.id as the Idempotency-Key, on every retry the same.
      const result = await backend.call(ctx, {
        method: 'POST',
        path: '/tasks',
        query: ownerOf(ctx.principal),
        body: { title: input.title },
        response: taskResponse,
        rejections: {
          409: {
            code: taskErrors.TASK_NOT_CREATED.code,
            message: 'The tasks service refused this key: it was reported as never applied.',
            resolution: 'Create the task again with a new idempotency_key if the user still wants it.',
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
    // Asked when an answer was lost and not recovered: did this operation create a task? The service
    // keeps every applied key and fences a key it was asked about, so its 404 is final.
    reconcile: (operation, ctx) =>
      backend.lookup(operation, ctx, {
        path: (operationId) => `/operations/${encodeURIComponent(operationId)}`,
        response: appliedKeyResponse,
        decide: ({ task }) => ({
          outcome: outcome.completed({
            task_id: task.task_id,
            title: task.title,
            created_at: task.created_at,
          }),
        }),
        notFound: 'never_applied',
        onNeverApplied: () =>
          outcome.rejected(taskErrors.TASK_NOT_CREATED.code, 'The tasks service never created this task.'),
      }),
  });
}
