/**
 * The parts of toolgate that commands load only when they run, and that an installation may lack: the
 * evaluation harness (with the model SDKs) and the reference demo. This file is the CLI's one door to
 * each: a dynamic import of the part's entry, nothing loaded before a command asks for it.
 */
export interface OptionalPart {
  /** How the message names it, e.g. "the evaluation harness". */
  readonly name: string;
  /** What to do about its absence: the rest of the message. */
  readonly remedy: string;
  /** The part's entry as a missing-module error names it; a module missing inside the part is another failure. */
  readonly entry: RegExp;
}

export const EVAL_HARNESS: OptionalPart = {
  name: 'the evaluation harness',
  remedy: 'install it with: npm install --save-dev @toolgate/eval',
  entry: /\/eval\/index\.[jt]s$/,
};

export const REFERENCE_DEMO: OptionalPart = {
  name: 'the reference demo',
  remedy: 'write a toolgate.config.ts (npx toolgate init) and run with it',
  entry: /\/domains\/index\.[jt]s$/,
};

/** The part's entry is not there. Its message is the one line a command prints (exit 2). */
export class PartMissingError extends Error {
  override readonly name = 'PartMissingError';
}

/** The module `importer` loads, or a PartMissingError when what is missing is the part's entry itself. */
export async function importPart<T>(part: OptionalPart, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const missing = missingModule(error);
    if (missing !== undefined && part.entry.test(missing)) {
      throw new PartMissingError(`${part.name} is not installed; ${part.remedy}`);
    }
    throw error;
  }
}

/** The module an ERR_MODULE_NOT_FOUND names ("Cannot find module '/x/dist/eval/index.js' imported from ..."). */
function missingModule(error: unknown): string | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  return /Cannot find (?:module|package) '([^']+)'/.exec((error as Error).message)?.[1];
}

/** The evaluation harness's entry (src/eval/index.ts). */
export function evalHarness(): Promise<typeof import('../eval/index.ts')> {
  return importPart(EVAL_HARNESS, () => import('../eval/index.ts'));
}

/** The reference demo's entry (src/domains/index.ts). */
export function referenceDemo(): Promise<typeof import('../domains/index.ts')> {
  return importPart(REFERENCE_DEMO, () => import('../domains/index.ts'));
}
