/** The simulation kit as the CLI reaches it: its one entry file, loaded when a feature needs it. */
export type SimulationKit = typeof import('../external/index.ts');

/**
 * Loads the simulation kit; null when it is not installed (then nothing served can be simulated,
 * since a simulated module is built with the kit). Any other failure to load it propagates.
 */
export async function loadSimulationKit(): Promise<SimulationKit | null> {
  try {
    return await import('../external/index.ts');
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'ERR_MODULE_NOT_FOUND' && String(message).includes('/external/index.')) return null;
    throw error;
  }
}

/** The simulation kit for a feature that cannot work without it; says what is missing when absent. */
export async function requireSimulationKit(feature: string): Promise<SimulationKit> {
  const kit = await loadSimulationKit();
  if (!kit) throw new Error(`${feature} needs the toolgate simulation kit, which is not installed`);
  return kit;
}
