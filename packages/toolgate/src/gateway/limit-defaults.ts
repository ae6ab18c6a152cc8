/**
 * Writes one principal may have executing at once unless configured: below the default database pool
 * of 10, so one caller cannot hold every connection. The one place this default is spelled; a module
 * of its own so that commands which do not serve can name it without loading the gateway.
 */
export const DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL = 8;

/**
 * Calls per second (burst the same) each principal gets from `toolgate serve` unless configured; 0
 * turns the limit off. Generous for an agent, which makes a few calls a second, and low enough that
 * one flooding caller cannot take the gateway from the others.
 */
export const DEFAULT_RATE_LIMIT_PER_PRINCIPAL = 100;

/**
 * Reply bytes per second (burst the same) each principal gets from `toolgate serve` unless configured;
 * 0 turns the budget off. Twice the most one POST may answer, so any single answer fits.
 */
export const DEFAULT_REPLY_BYTES_PER_SECOND_PER_PRINCIPAL = 8 * 1024 * 1024;
