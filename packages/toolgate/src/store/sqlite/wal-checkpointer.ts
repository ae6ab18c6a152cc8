import { Worker } from 'node:worker_threads';
import type { WalWorkerData, WalWorkerReport, WalWorkerRequest } from './wal-worker.ts';

/** How often the checkpoint thread copies the WAL into the database file, unless configured. */
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 200;
/** The WAL's size (in pages, about 16 MB) past which the thread asks for writes to be held for a checkpoint. */
export const DEFAULT_RESET_FRAMES = 4_096;

/**
 * The checkpoint thread's module, beside this one: compiled in the package, its TypeScript source when
 * this module runs from source (Node strips its types; the flag keeps Node 22.12-22.17 working).
 */
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_MODULE = new URL(fromSource ? './wal-worker.ts' : './wal-worker.js', import.meta.url);
const WORKER_EXEC_ARGV = fromSource ? [...process.execArgv, '--experimental-strip-types'] : undefined;

/** What one checkpoint did: the WAL's frames and how many of them are now in the database file. */
export interface CheckpointResult {
  readonly frames: number;
  readonly copied: number;
}

/**
 * WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the COMMIT that
 * crosses 1,000 pages, on the connection that commits: here the event loop, with an fsync of the
 * database file in the middle of a call. This thread checkpoints instead, on its own connection, so the
 * WAL keeps being copied back and reset; the request connection keeps only a far higher threshold as
 * a backstop, so the WAL stays bounded even if the thread falls behind (a busy machine starves it). If
 * the thread stops unexpectedly, `onLost` is told, and the request connection checkpoints as before.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  #stopped = false;
  /** Checkpoints asked for and not yet answered; the thread is held while there are any. */
  #waiting = 0;
  #nextId = 0;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /**
   * Starts the thread; `onReady` once it checkpoints (then the request connection may stop checkpointing),
   * `onLost` if it stops before `stop()` (then the request connection must checkpoint again), `onBehind`
   * when writes that never pause have let the WAL grow past `resetFrames` (then the request connection
   * holds its writes for one `checkpointNow`, and its next write starts the WAL over).
   */
  static start(
    file: string,
    events: { onReady: () => void; onLost: (why: string) => void; onBehind?: () => void },
    intervalMs = DEFAULT_CHECKPOINT_INTERVAL_MS,
    resetFrames = DEFAULT_RESET_FRAMES,
  ): WalCheckpointer {
    const workerData: WalWorkerData = { file, intervalMs, resetFrames };
    const worker = new Worker(WORKER_MODULE, { workerData, execArgv: WORKER_EXEC_ARGV });
    // The thread must not keep the process alive; closing the database stops it.
    worker.unref();
    const checkpointer = new WalCheckpointer(worker);
    const onLost = events.onLost;
    worker.on('message', (message: WalWorkerReport) => {
      if (checkpointer.#stopped) return;
      if (message.type === 'ready') events.onReady();
      if (message.type === 'behind') events.onBehind?.();
    });
    worker.once('error', (error) => {
      if (!checkpointer.#stopped) onLost(error.message);
    });
    worker.once('exit', (code) => {
      if (!checkpointer.#stopped) onLost(`the checkpoint thread exited (${code})`);
    });
    return checkpointer;
  }

  /**
   * Runs one checkpoint now and answers what it did (for held writes, tests and diagnostics); with
   * `timeoutMs`, fails when the thread has not answered by then. The thread is held while
   * it answers: a process with nothing else left to do would otherwise exit with the wait unsettled.
   */
  checkpointNow(timeoutMs?: number): Promise<CheckpointResult> {
    if (this.#stopped) return Promise.reject(new Error('the checkpoint thread is stopped'));
    const id = this.#nextId++;
    if (this.#waiting++ === 0) this.#worker.ref();
    let onMessage: (result: WalWorkerReport) => void = () => {};
    let timer: NodeJS.Timeout | undefined;
    return new Promise<CheckpointResult>((resolve, reject) => {
      // Only the answer to this request: another caller's checkpoint may have run before it was asked.
      onMessage = (result) => {
        if (result.type !== 'checkpoint' || result.id !== id) return;
        if ('error' in result) reject(new Error(result.error));
        else resolve({ frames: result.frames, copied: result.copied });
      };
      this.#worker.on('message', onMessage);
      this.#post({ type: 'checkpoint', id });
      if (timeoutMs !== undefined) {
        // The thread is held while it is waited for; the timer alone keeps nothing alive.
        timer = setTimeout(() => reject(new Error(`no checkpoint within ${timeoutMs} ms`)), timeoutMs);
        timer.unref();
      }
    }).finally(() => {
      clearTimeout(timer);
      this.#worker.off('message', onMessage);
      if (--this.#waiting === 0 && !this.#stopped) this.#worker.unref();
    });
  }

  #post(request: WalWorkerRequest): void {
    this.#worker.postMessage(request);
  }

  /** Stops the thread and closes its connection. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    // Held while it stops: a process with nothing else left to do would otherwise exit with this wait
    // unsettled, and whatever awaited close() would never go on.
    this.#worker.ref();
    this.#post({ type: 'stop' });
    await exited;
  }
}
