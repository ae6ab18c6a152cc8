/** Exit status when the command could not do its job at all (unreadable file), as opposed to a failed gate. */
const USAGE_FAILURE = 2;

/**
 * Runs a command's work; a failure to do it at all is reported on stderr with exit status 2. Matched
 * by name, not class, so registering a command loads nothing but this file.
 */
export async function guarded(command: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const { name, message } = error as Error;
    process.stderr.write(
      `toolgate ${command}: ${name === 'ConfigFileError' ? 'invalid config ' : ''}${message}\n`,
    );
    process.exitCode = USAGE_FAILURE;
  }
}
