import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpoint thread copies the WAL into the database file, unless configured. */
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 200;

/**
 * The checkpoint thread's code: its own connection to the database, a PASSIVE checkpoint every
 * interval (it copies what it can without waiting for, or blocking, any reader or writer), and a reply
 * to each `checkpoint` message with what the checkpoint did. An eval worker, so that the same code runs
 * from the TypeScript sources and from the compiled package.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    return { type: 'checkpoint', frames: row.log, copied: row.checkpointed };
  } catch (error) {
    return { type: 'checkpoint', error: String(error) };
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (message) => {
  if (message === 'checkpoint') parentPort.postMessage(checkpoint());
  if (message === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

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

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /**
   * Starts the thread; `onReady` once it checkpoints (then the request connection may stop checkpointing),
   * `onLost` if it stops before `stop()` (then the request connection must checkpoint again).
   */
  static start(
    file: string,
    events: { onReady: () => void; onLost: (why: string) => void },
    intervalMs = DEFAULT_CHECKPOINT_INTERVAL_MS,
  ): WalCheckpointer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { file, driver, intervalMs } });
    // The thread must not keep the process alive; closing the database stops it.
    worker.unref();
    const checkpointer = new WalCheckpointer(worker);
    const onLost = events.onLost;
    worker.on('message', (message: { type: string }) => {
      if (message.type === 'ready' && !checkpointer.#stopped) events.onReady();
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
   * Runs one checkpoint now and answers what it did (tests and diagnostics). The thread is held while
   * it answers: a process with nothing else left to do would otherwise exit with the wait unsettled.
   */
  checkpointNow(): Promise<CheckpointResult> {
    this.#worker.ref();
    return new Promise<CheckpointResult>((resolve, reject) => {
      const onMessage = (result: CheckpointResult & { type: string; error?: string }) => {
        if (result.type !== 'checkpoint') return;
        this.#worker.off('message', onMessage);
        if (result.error) reject(new Error(result.error));
        else resolve({ frames: result.frames, copied: result.copied });
      };
      this.#worker.on('message', onMessage);
      this.#worker.postMessage('checkpoint');
    }).finally(() => {
      if (!this.#stopped) this.#worker.unref();
    });
  }

  /** Stops the thread and closes its connection. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    const exited = new Promise<void>((resolve) => this.#worker.once('exit', () => resolve()));
    // Held while it stops: a process with nothing else left to do would otherwise exit with this wait
    // unsettled, and whatever awaited close() would never go on.
    this.#worker.ref();
    this.#worker.postMessage('stop');
    await exited;
  }
}
