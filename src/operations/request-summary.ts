const WITHHELD_ALWAYS = new Set(['idempotency_key', 'dry_run']);
const MAX_TEXT = 80;

/**
 * What an operator is shown of a request: the top-level scalar arguments (ids, titles, flags), text cut
 * to 80 characters. Fields the tool marks sensitive and every nested object or array (addresses, plans,
 * free-form payloads) are withheld and only named, so the summary never carries an address or secret.
 */
export function requestSummary(
  args: Readonly<Record<string, unknown>>,
  sensitiveFields: readonly string[] | undefined,
): Record<string, unknown> {
  const sensitive = new Set(sensitiveFields ?? []);
  const shown: Record<string, unknown> = {};
  const withheld: string[] = [];
  for (const [field, value] of Object.entries(args)) {
    if (WITHHELD_ALWAYS.has(field)) continue;
    if (sensitive.has(field) || (value !== null && typeof value === 'object')) withheld.push(field);
    else if (typeof value === 'string')
      shown[field] = value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT - 1)}…` : value;
    else shown[field] = value;
  }
  return withheld.length > 0 ? { ...shown, withheld: withheld.sort() } : shown;
}
