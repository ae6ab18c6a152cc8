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
  /** The part's package; a module missing inside the installed part is another failure. */
  readonly entry: string;
  /**
   * Peer packages the part needs beside it, with how to install each: a peer npm left out (an
   * optional peer, an older npm) is named in the same one line rather than as a loader error.
   */
  readonly peers?: readonly { readonly entry: string; readonly name: string; readonly remedy: string }[];
}

export const EVAL_HARNESS: OptionalPart = {
  name: 'the evaluation harness',
  remedy: 'install it with: npm install --save-dev @toolgate/eval',
  entry: '@toolgate/eval',
  peers: [
    {
      entry: '@toolgate/simulation',
      name: 'the simulation kit',
      remedy: 'install it with: npm install --save-dev @toolgate/simulation',
    },
  ],
};

export const REFERENCE_DEMO: OptionalPart = {
  name: 'the reference demo',
  remedy: 'write a toolgate.config.ts (npx toolgate init) and run with it',
  entry: '@toolgate/domains',
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
    if (missing === part.entry) {
      throw new PartMissingError(`${part.name} is not installed; ${part.remedy}`);
    }
    const peer = part.peers?.find((p) => p.entry === missing);
    if (peer) {
      throw new PartMissingError(`${part.name} needs ${peer.name}, which is not installed; ${peer.remedy}`);
    }
    throw error;
  }
}

/** The package or module an ERR_MODULE_NOT_FOUND names ("Cannot find package '@toolgate/eval' imported from ..."). */
function missingModule(error: unknown): string | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'ERR_MODULE_NOT_FOUND') return undefined;
  return /Cannot find (?:module|package) '([^']+)'/.exec((error as Error).message)?.[1];
}

/** The evaluation harness's entry (@toolgate/eval). */
export function evalHarness(): Promise<typeof import('@toolgate/eval')> {
  return importPart(EVAL_HARNESS, () => import('@toolgate/eval'));
}

/** The reference demo's entry (@toolgate/domains). */
export function referenceDemo(): Promise<typeof import('@toolgate/domains')> {
  return importPart(REFERENCE_DEMO, () => import('@toolgate/domains'));
}
