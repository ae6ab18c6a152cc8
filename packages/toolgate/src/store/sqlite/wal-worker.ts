import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * The checkpoint thread (started by wal-checkpointer.ts): its own connection to the database, a
 * PASSIVE checkpoint every interval (it copies what it can without waiting for, or blocking, any
 * reader or writer), a `behind` message when the WAL has grown past `resetFrames` without starting
 * over, and a reply to each `checkpoint` message with what the checkpoint did.
 */

/** What the thread is started with. */
export interface WalWorkerData {
  readonly file: string;
  readonly intervalMs: number;
  readonly resetFrames: number;
}

/** What the thread is asked: one checkpoint now (answered with its id), or to stop. */
export type WalWorkerRequest =
  | { readonly type: 'checkpoint'; readonly id: number }
  | { readonly type: 'stop' };

/** What the thread tells: it checkpoints, the WAL is behind, or what one checkpoint did. */
export type WalWorkerReport =
  | { readonly type: 'ready' }
  | { readonly type: 'behind'; readonly frames: number }
  | CheckpointReport;

export type CheckpointReport =
  | { readonly type: 'checkpoint'; readonly frames: number; readonly copied: number; readonly id?: number }
  | { readonly type: 'checkpoint'; readonly error: string; readonly id?: number };

const port = parentPort!;
const { file, intervalMs, resetFrames } = workerData as WalWorkerData;
const db = new Database(file, { fileMustExist: true });
db.pragma('busy_timeout = 0');

function checkpoint(): CheckpointReport {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    return { type: 'checkpoint', frames: row!.log, copied: row!.checkpointed };
  } catch (error) {
    return { type: 'checkpoint', error: String(error) };
  }
}

const report = (message: WalWorkerReport) => port.postMessage(message);

// The WAL starts over only at a write that finds every frame copied; writes that go on through every
// checkpoint append frames while it copies, so it never does. Past the threshold the thread asks the
// request connection for a checkpoint with its writes held.
const timer = setInterval(() => {
  const done = checkpoint();
  if (!('error' in done) && done.frames >= resetFrames) report({ type: 'behind', frames: done.frames });
}, intervalMs);
report({ type: 'ready' });
port.on('message', (message: WalWorkerRequest) => {
  if (message.type === 'checkpoint') report({ ...checkpoint(), id: message.id });
  if (message.type === 'stop') {
    clearInterval(timer);
    db.close();
    port.close();
  }
});
