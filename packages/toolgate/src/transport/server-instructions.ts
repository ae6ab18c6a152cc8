/** The envelope explained once per server, so that no tool's output schema has to repeat it. */
export const INSTRUCTIONS =
  'Every tool answers with the same outcome envelope: ok (true only for completed, validated, submitted), ' +
  'tool and contract_version (who answered), status, operation_id (for operations_get), replayed (true when ' +
  'this is the stored answer of an earlier delivery of the same key), code and category (why, on a refusal ' +
  'or failure; null on success), message (relay it), retryable, resolution (the next step), field_errors ' +
  "(one per argument to fix: field, code, message), result (the tool's own typed result) and warnings. " +
  'Only completed/validated/submitted mean success; outcome_unknown means the change may have happened: ' +
  'poll operations_get or retry with the same idempotency_key, never a new one.';
