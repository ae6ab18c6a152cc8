import { createHttpBackend } from 'toolgate';
import { tasksCreateTool } from './tasks-create-tool.ts';
import { tasksGetTool } from './tasks-get-tool.ts';

/** The task tools over the tasks service at `baseUrl`. */
export function taskTools(baseUrl: string) {
  const tasks = createHttpBackend({
    baseUrl,
    // The service stores the first answer per key, so the kit may resend a write whose answer was lost.
    dedupesByKey: true,
    attemptTimeoutMs: 3_000,
  });
  return [tasksGetTool(tasks), tasksCreateTool(tasks)];
}
