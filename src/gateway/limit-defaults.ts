/**
 * Writes one principal may have executing at once unless configured: below the default database pool
 * of 10, so one caller cannot hold every connection. The one place this default is spelled; a module
 * of its own so that commands which do not serve can name it without loading the gateway.
 */
export const DEFAULT_WRITES_IN_FLIGHT_PER_PRINCIPAL = 8;
