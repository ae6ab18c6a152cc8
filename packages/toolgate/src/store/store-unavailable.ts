/**
 * Whether an error from the database means it is unavailable (not answering, refusing connections,
 * locked, out of space) rather than a bug in a statement. Such a failure is a dependency outage: the
 * caller may retry later, with the same idempotency key for a write.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    // PostgreSQL SQLSTATE classes: 08 connection exception, 53 insufficient resources, 57P operator
    // intervention (shutdown, cannot connect now); 3D000: the database itself is gone; 57014: a
    // statement cancelled by statement_timeout (the server is too slow to answer in time).
    if (/^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[1-4]$/.test(code) || code === '3D000') return true;
    if (code === '57014') return true;
    if (SQLITE_UNAVAILABLE.test(code)) return true;
  }
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL)/;

const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not currently accepting connections|Client has encountered a connection error|The database connection is not open|Query read timeout/;
