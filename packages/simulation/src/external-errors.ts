/** The external system did not take the request; nothing was applied. */
export class ExternalUnavailableError extends Error {
  constructor(readonly system: string) {
    super(`${system} is unavailable`);
    this.name = 'ExternalUnavailableError';
  }
}

/** The external system refused the request under its own rules; nothing was applied. */
export class ExternalRejectedError extends Error {
  constructor(
    readonly system: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ExternalRejectedError';
  }
}

/**
 * No answer arrived: the request may or may not have been applied (response lost, timeout, or the
 * caller gave up waiting). Only asking the system by operation id settles it.
 */
export class ExternalOutcomeUnknownError extends Error {
  constructor(
    readonly system: string,
    readonly reason: 'response_lost' | 'timeout' | 'aborted',
  ) {
    super(`${system}: no answer (${reason})`);
    this.name = 'ExternalOutcomeUnknownError';
  }
}
