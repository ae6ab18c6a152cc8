import { defineErrorCodes } from 'toolgate';

/** Stable codes of the change-management tools (gateway codes such as FORBIDDEN come on top). */
export const changeErrors = defineErrorCodes({
  UNKNOWN_SERVICE: {
    category: 'not_found',
    retryable: false,
    description:
      'No service with this service_id exists in your catalog. Call cmdb_service_resolve with the name the user gave and use one of the returned service_id values; never guess one.',
  },
  SERVICE_RETIRED: {
    category: 'state',
    retryable: false,
    description:
      'The service exists but is retired and takes no new changes; ask the user which service replaced it.',
  },
  START_TIME_IN_PAST: {
    category: 'validation',
    retryable: false,
    description: 'start_time is not in the future; ask the user for a future start time.',
  },
  CREDENTIALS_IN_PLAN: {
    category: 'policy',
    retryable: false,
    description:
      'A plan or the summary looks like it contains a secret (password, token, access key, private key). Remove it and refer to the secret by the name of the vault entry instead.',
  },
  CHANGE_FREEZE_ACTIVE: {
    category: 'policy',
    retryable: false,
    description:
      'A change freeze covers the requested time and environment. Choose a time after the freeze or escalate to the change advisory board; there is no override field.',
  },
  MAINTENANCE_WINDOW_REQUIRED: {
    category: 'policy',
    retryable: false,
    description:
      'Production changes must run inside an approved maintenance window of the service, or start under a maintenance_window exception granted by someone other than the requester; field_errors names the next window (and an exception that does not apply). Ask the user to pick a time inside one.',
  },
  CHANGE_PLATFORM_REJECTED: {
    category: 'dependency',
    retryable: false,
    // The other system decided under its own rules: a refusal to follow, not a failure to report.
    status: 'rejected',
    description:
      'The change platform refused the change under its own rules; nothing was created. Report it.',
  },
  CHANGE_NOT_FOUND: {
    category: 'not_found',
    retryable: false,
    description:
      'No change with this id is visible to you. Check the id, or find the change with change_search; never guess ids.',
  },
  CHANGE_CREATION_IN_PROGRESS: {
    category: 'conflict',
    retryable: false,
    description:
      'An identical change request of yours has not finished and its outcome is not established, so its change may exist or still appear; nothing was created now. Poll operations_get with the operation the resolution names until it settles; confirm_new_change does not override this.',
  },
  CHANGE_NOT_CREATED: {
    category: 'state',
    retryable: false,
    description:
      'Reconciliation found that the change platform never received this operation: nothing was created. Start over with a dry run and a new idempotency_key if the change is still wanted.',
  },
});
