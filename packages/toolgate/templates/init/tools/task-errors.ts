import { defineErrorCodes } from 'toolgate';

/** The codes the task tools answer with: the contract agents see, not the service's wire format. */
export const taskErrors = defineErrorCodes({
  TASK_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description:
      'No task with this id belongs to the caller; list what the user means instead of guessing ids.',
  },
  TASK_NOT_CREATED: {
    category: 'state',
    retryable: false,
    description:
      'The tasks service confirmed this task was never created; nothing changed. A new attempt needs a new idempotency_key.',
  },
});
