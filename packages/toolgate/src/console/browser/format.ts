/**
 * How the console words what the API answers: every time in UTC ("2026-12-02 09:30 UTC"), a
 * request's recorded fields without the empty ones and the withheld list, an audit entry's detail as
 * labelled fields, and the UTC date-times an operator types.
 */
import type { OperationView } from './operator-api.ts';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO time as UTC to the minute (`seconds` adds them); anything else unchanged. */
export function utc(iso: string | null | undefined, seconds = false): string {
  const time = utcCell(iso, seconds);
  return time === iso || time === '' ? time : `${time} UTC`;
}

/** A time for a table cell, whose column header says UTC: `2026-12-02 09:30`. */
export function utcCell(iso: string | null | undefined, seconds = false): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (!ISO_TIME.test(iso) || Number.isNaN(ms)) return iso;
  return new Date(ms)
    .toISOString()
    .slice(0, seconds ? 19 : 16)
    .replace('T', ' ');
}

/** `customer_id` as a label: "Customer id". */
export const labelOf = (name: string) =>
  `${name.charAt(0).toUpperCase()}${name.slice(1).replaceAll('_', ' ')}`;

/** A value as words: none for null, lists joined, times in UTC. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value === 'string') return utc(value, true);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The request's recorded scalar fields worth showing: empty ones and the withheld list left out. */
export function requestFields(request: OperationView['request']): [string, string][] {
  if (!request) return [];
  return Object.entries(request)
    .filter(([name, value]) => name !== 'withheld' && value !== '' && value !== null)
    .map(([name, value]) => [name, valueText(value)]);
}

/** The fields the tool withheld (sensitive, or nested), named only. */
export function withheldFields(request: OperationView['request']): string[] {
  const withheld = request?.withheld;
  return Array.isArray(withheld) ? withheld.map(String) : [];
}

/** The request in one line, for a table cell: `order_id: ord_4711 · title: Birthday present`. */
export function requestText(request: OperationView['request']): string {
  return requestFields(request)
    .map(([name, value]) => `${name}: ${value}`)
    .join(' · ');
}

/** An audit entry's detail as labelled fields, nested objects flattened ("Confirmation outcome"). */
export function detailFields(detail: Readonly<Record<string, unknown>>, prefix = ''): [string, string][] {
  return Object.entries(detail).flatMap(([name, value]): [string, string][] => {
    const label = prefix ? `${prefix} ${name.replaceAll('_', ' ')}` : labelOf(name);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return detailFields(value as Record<string, unknown>, label);
    }
    return [[label, valueText(value)]];
  });
}

/** What a UTC date-time field takes: `2026-12-02 09:30` (a `T` for the space, seconds and a `Z` allowed). */
export const UTC_INPUT_PATTERN = '\\s*\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2})?Z?\\s*';
const UTC_INPUT = new RegExp(`^${UTC_INPUT_PATTERN}$`);

/** A typed UTC date-time as ISO 8601; '' for an empty field; null for text that is not one. */
export function parseUtcInput(text: string): string | null {
  const value = text.trim();
  if (value === '') return '';
  if (!UTC_INPUT.test(value)) return null;
  const typed = value.replace(' ', 'T').replace(/Z$/, '');
  const ms = Date.parse(`${typed}Z`);
  // A day the month does not have (2026-02-30) is refused, not rolled over.
  if (Number.isNaN(ms) || !new Date(ms).toISOString().startsWith(typed)) return null;
  return new Date(ms).toISOString();
}

/** An ISO time as a UTC date-time field shows it: `2026-12-02 09:30`. */
export const utcInputValue = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
};

/** An exception's target in one line: `service_id: payments-api, environment: production`. */
export const targetText = (target: Readonly<Record<string, unknown>>) =>
  Object.entries(target)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join(', ');
