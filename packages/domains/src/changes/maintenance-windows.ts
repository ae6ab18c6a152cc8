/** A weekly recurring maintenance window, in UTC. */
export interface WindowRule {
  /** 0 = Sunday ... 6 = Saturday. */
  readonly weekday: number;
  readonly startMinute: number;
  readonly lengthMinutes: number;
}

export interface WindowOccurrence {
  readonly startAt: number;
  readonly endAt: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** How far ahead we look for the next window before saying there is none. */
const SEARCH_HORIZON_DAYS = 120;

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Occurrences starting between the day before `fromMs` and `toMs`, earliest first. */
export function occurrencesBetween(
  rules: readonly WindowRule[],
  fromMs: number,
  toMs: number,
): WindowOccurrence[] {
  const found: WindowOccurrence[] = [];
  // Start a day early so a window that began yesterday and runs past midnight is seen.
  for (let day = Math.floor(fromMs / DAY_MS) * DAY_MS - DAY_MS; day <= toMs; day += DAY_MS) {
    const weekday = new Date(day).getUTCDay();
    for (const rule of rules) {
      if (rule.weekday !== weekday) continue;
      const startAt = day + rule.startMinute * MINUTE_MS;
      if (startAt <= toMs) found.push({ startAt, endAt: startAt + rule.lengthMinutes * MINUTE_MS });
    }
  }
  return found.sort((a, b) => a.startAt - b.startAt);
}

/** The window occurrence that holds the whole of [startAt, startAt + duration), if any. */
export function windowHolding(
  rules: readonly WindowRule[],
  startAt: number,
  durationMinutes: number,
): WindowOccurrence | null {
  const endAt = startAt + durationMinutes * MINUTE_MS;
  return (
    occurrencesBetween(rules, startAt, startAt).find((o) => o.startAt <= startAt && endAt <= o.endAt) ?? null
  );
}

/**
 * The earliest window starting at or after `fromMs` that is long enough for the change and where
 * `usable` (e.g. "not inside a freeze") holds; null when none within the search horizon.
 */
export function nextWindow(
  rules: readonly WindowRule[],
  fromMs: number,
  durationMinutes: number,
  usable: (occurrence: WindowOccurrence) => boolean = () => true,
): WindowOccurrence | null {
  const horizon = fromMs + SEARCH_HORIZON_DAYS * DAY_MS;
  return (
    occurrencesBetween(rules, fromMs, horizon).find(
      (o) => o.startAt >= fromMs && o.endAt - o.startAt >= durationMinutes * MINUTE_MS && usable(o),
    ) ?? null
  );
}

/** "Saturday 06:00-10:00 UTC", for descriptions and fixtures. */
export function describeWindow(rule: WindowRule): string {
  const end = (rule.startMinute + rule.lengthMinutes) % 1440;
  return `${WEEKDAY_NAMES[rule.weekday]} ${clock(rule.startMinute)}-${clock(end)} UTC`;
}

function clock(minuteOfDay: number): string {
  const h = Math.floor(minuteOfDay / 60);
  const m = minuteOfDay % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}
