/** How long start-up waits on one step (importing the config, one module's create()) unless configured. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const MIN_STARTUP_TIMEOUT_MS = 100;
const MAX_STARTUP_TIMEOUT_MS = 600_000;
/** Exit status of a start-up that gave up: the config could not be loaded, as for any invalid config. */
const GAVE_UP = 2;

/**
 * The bound on each step start-up waits for. A config's import or a module's create() that never
 * settles cannot be cancelled from outside, so past the bound the process says what it was waiting on
 * and exits rather than hanging with the port never bound.
 */
export interface StartupDeadline {
  readonly timeoutMs: number;
  /** `step`'s value, or (when it has not settled within the bound) an exit naming `what`. */
  within<T>(step: Promise<T>, what: string): Promise<T>;
}

/**
 * The deadline of `TOOLGATE_STARTUP_TIMEOUT_MS` (milliseconds, 100-600000, default 30000). A value out
 * of range is refused with exit 2 before anything is loaded. `command` prefixes the messages.
 */
export function startupDeadline(command: string, env: NodeJS.ProcessEnv = process.env): StartupDeadline {
  const raw = env.TOOLGATE_STARTUP_TIMEOUT_MS;
  const timeoutMs = raw ? Number(raw) : DEFAULT_STARTUP_TIMEOUT_MS;
  if (
    !Number.isInteger(timeoutMs) ||
    timeoutMs < MIN_STARTUP_TIMEOUT_MS ||
    timeoutMs > MAX_STARTUP_TIMEOUT_MS
  ) {
    process.stderr.write(
      `${command}: TOOLGATE_STARTUP_TIMEOUT_MS=${raw}: must be a whole number of milliseconds, ${MIN_STARTUP_TIMEOUT_MS}-${MAX_STARTUP_TIMEOUT_MS}\n`,
    );
    process.exit(GAVE_UP);
  }
  return {
    timeoutMs,
    within<T>(step: Promise<T>, what: string): Promise<T> {
      const timer = setTimeout(() => {
        process.stderr.write(
          `${command}: start-up gave up after ${timeoutMs} ms waiting on ${what}; TOOLGATE_STARTUP_TIMEOUT_MS sets the bound\n`,
        );
        process.exit(GAVE_UP);
      }, timeoutMs);
      return step.finally(() => clearTimeout(timer));
    },
  };
}
