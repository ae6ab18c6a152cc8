import { defineErrorCodes } from 'toolgate';

/** The workitems domain's own codes; the gateway's codes (OUTCOME_UNKNOWN, ...) come on top. */
export const workitemsErrors = defineErrorCodes({
  PROJECT_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description:
      'No project with this id exists for the caller. Use a project id the user gave you; never guess one.',
  },
  PROJECT_ACCESS_DENIED: {
    category: 'authorization',
    retryable: false,
    description:
      'The caller is not allowed to read, or to write to, this project. Only a project administrator can grant it; do not retry.',
  },
  WORKITEM_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description: 'No draft or work item with this id is visible to the caller; check the id.',
  },
  DRAFT_ALREADY_COMMITTED: {
    category: 'state',
    retryable: false,
    description:
      'The draft was already committed; the message names the work item it became. Do not commit it again.',
  },
  COMMIT_OUTCOME_PENDING: {
    category: 'state',
    retryable: false,
    description:
      'An earlier commit of this draft, or of another draft with the same title and description, has no established outcome; nothing was sent. Poll operations_get with the named operation instead of committing again (confirm_new_item does not apply until it settles).',
  },
  POSSIBLE_DUPLICATE: {
    category: 'confirmation',
    retryable: false,
    description:
      'A recent request matches this one; show the existing one to the user and repeat only with their explicit confirmation.',
  },
  TRACKER_REJECTED: {
    category: 'dependency',
    retryable: false,
    // The other system decided under its own rules: a refusal to follow, not a failure to report.
    status: 'rejected',
    description:
      'The tracker refused the item under its own rules and created nothing; the message says why.',
  },
  COMMIT_NOT_APPLIED: {
    category: 'state',
    retryable: false,
    description:
      'The commit never reached the tracker and never will; nothing was created and the draft is open again. Commit it with a new idempotency key if still wanted.',
  },
  DRAFT_NOT_CREATED: {
    category: 'state',
    retryable: false,
    description: 'The draft was never stored; nothing changed. Create it again with a new idempotency key.',
  },
});
