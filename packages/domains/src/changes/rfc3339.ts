const OFFSET = /(?:Z|([+-])(\d{2}):(\d{2}))$/i;

/** The UTC offset, in minutes, written at the end of an RFC 3339 date-time ("Z" is 0). */
export function offsetMinutesOf(dateTime: string): number {
  const match = OFFSET.exec(dateTime);
  if (!match) throw new Error(`${dateTime} has no UTC offset`);
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * An instant written as RFC 3339 at the given offset, so that times we report back read in the
 * caller's own offset (2026-08-16T01:00:00-05:00 rather than 06:00Z).
 */
export function formatAtOffset(epochMs: number, offsetMinutes: number): string {
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().slice(0, 19);
  if (offsetMinutes === 0) return `${local}Z`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
