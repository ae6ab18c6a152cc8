/** The simulation kit (@toolgate/simulation) as the CLI and the test gateway reach it: its entry. */
export type SimulationKit = typeof import('@toolgate/simulation');

/** The kit's name, as a missing-package error names it. */
const KIT = '@toolgate/simulation';

/**
 * Loads the simulation kit; null when it is not installed (then nothing served can be simulated,
 * since a simulated module is built with the kit). Any other failure to load it propagates.
 */
export async function loadSimulationKit(): Promise<SimulationKit | null> {
  try {
    return await import('@toolgate/simulation');
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'ERR_MODULE_NOT_FOUND' && String(message).includes(`Cannot find package '${KIT}'`))
      return null;
    throw error;
  }
}

/** The simulation kit for a feature that cannot work without it; says what is missing when absent. */
export async function requireSimulationKit(feature: string): Promise<SimulationKit> {
  const kit = await loadSimulationKit();
  if (!kit) throw new Error(`${feature} needs the toolgate simulation kit (${KIT}), which is not installed`);
  return kit;
}
