import { z } from 'zod';

/** What the tasks service answers for one task; plain z.object accepts fields it adds later. */
export const taskResponse = z.object({
  task_id: z.string(),
  title: z.string(),
  created_at: z.string(),
});

/** What the service answers about an idempotency key it applied. */
export const appliedKeyResponse = z.object({ state: z.literal('applied'), task: taskResponse });

/** The task as the tools answer it. */
export const taskView = z.strictObject({
  task_id: z.string().describe('The id the tasks service gave the task.'),
  title: z.string().describe('What the task is about.'),
  created_at: z.string().describe('When the task was created, ISO 8601.'),
});

/** The service's tasks are per user: every call says whose. */
export function ownerOf(principal: { tenant: string; subject: string }) {
  return { owner: `${principal.tenant}/${principal.subject}` };
}
