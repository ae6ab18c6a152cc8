/** The harness's entry, loaded only when `toolgate eval` runs. */
export type Harness = typeof import('../index.ts');

const KIT = '@toolgate/simulation';

/**
 * Loads the harness; the simulation kit it builds on, left out by npm (an older npm, an omitted peer),
 * is named in one line with how to install it rather than as a loader error.
 */
export async function loadHarness(): Promise<Harness> {
  try {
    return await import('../index.ts');
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'ERR_MODULE_NOT_FOUND' && String(message).includes(`Cannot find package '${KIT}'`)) {
      throw new Error(
        `the evaluation harness needs the simulation kit, which is not installed; install it with: npm install --save-dev ${KIT}`,
      );
    }
    throw error;
  }
}
