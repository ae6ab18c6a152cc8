// On its own so that commands can recognise the error without loading the config loader.

/** A config file that cannot be served; every problem is named, each on its own line. */
export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigFileError';
  }
}
