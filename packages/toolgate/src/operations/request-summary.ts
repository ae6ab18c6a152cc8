const WITHHELD_ALWAYS = new Set(['idempotency_key', 'dry_run']);
const MAX_TEXT = 80;

/**
 * The one rule for what an operation shows of its contents to anyone reading it (the operator API,
 * operations_get): the top-level scalar fields (ids, titles, states, flags), text cut to 80 characters.
 * Fields the tool marks sensitive and every nested object or array (addresses, plans, items, free-form
 * payloads) are withheld and only named under `withheld`, so no view carries an address or secret.
 */
export function withholdingView(
  fields: Readonly<Record<string, unknown>>,
  sensitiveFields: readonly string[] | undefined,
): Record<string, unknown> {
  const sensitive = new Set(sensitiveFields ?? []);
  const shown: Record<string, unknown> = {};
  const withheld: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (sensitive.has(field) || (value !== null && typeof value === 'object')) withheld.push(field);
    else if (typeof value === 'string')
      shown[field] = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
    else shown[field] = value;
  }
  return withheld.length > 0 ? { ...shown, withheld: withheld.sort() } : shown;
}

/** What an operator is shown of a request (withholdingView); the idempotency key and mode never. */
export function requestSummary(
  args: Readonly<Record<string, unknown>>,
  sensitiveFields: readonly string[] | undefined,
): Record<string, unknown> {
  const request = Object.fromEntries(Object.entries(args).filter(([field]) => !WITHHELD_ALWAYS.has(field)));
  return withholdingView(request, sensitiveFields);
}
