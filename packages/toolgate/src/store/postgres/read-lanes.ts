import pg from 'pg';
import { DEFAULT_READ_LANES } from './postgres-defaults.ts';

/** Connection settings a lane shares with the pool's connections. */
export type LaneConfig = Omit<pg.ClientConfig, 'pipeline'>;

export interface ReadLaneOptions {
  /** Pipelined connections (default 1; 0 turns lanes off and the pool serves every statement). */
  readonly lanes?: number;
  /** Statements a lane may hold unanswered; past it the pool serves (default 32). */
  readonly maxInFlight?: number;
  /**
   * A lane whose oldest unanswered statement is older than this (ms) takes no more until it answers;
   * the pool serves meanwhile, so a slow read delays at most the reads already queued behind it.
   */
  readonly stallMs?: number;
}

const DEFAULT_MAX_IN_FLIGHT = 32;
const DEFAULT_STALL_MS = 50;
/** How long a lane whose connection failed waits before it tries again; the pool serves meanwhile. */
const RECONNECT_AFTER_MS = 1_000;

/** What the server shows in pg_stat_activity.application_name for a lane, unless the URL names one. */
export const READ_LANE_APPLICATION_NAME = 'toolgate read lane';

interface Lane {
  client: pg.Client | null;
  connecting: boolean;
  /** When each unanswered statement was written (ms), oldest first: a lane answers in order. */
  readonly sentAt: number[];
  /** Not before this time (ms) after a failed or broken connection. */
  retryAt: number;
  /** The lane's socket is corked until the end of this event-loop turn. */
  corked: boolean;
}

interface CorkableStream {
  cork(): void;
  uncork(): void;
}

/**
 * Connections in pipeline mode for single read-only statements outside transactions. Statements
 * written in one event-loop turn leave in one write and the server answers them in order on one
 * connection, so under load a read costs a share of one wake-up of a busy backend instead of a pool
 * checkout, a write and a wake-up of an idle backend; the driver does less per statement too.
 *
 * Only plain SELECTs come here (`isPlainRead`): they never wait for a lock, so a statement queued
 * behind another is delayed by that one's run time only, never by a transaction it waits for, and a
 * transaction cannot end up waiting on a read queued behind its own lock. A lane that is not
 * connected, holds `maxInFlight` statements, or has one unanswered for `stallMs` is passed over and the
 * pool serves the statement. A broken lane fails the statements it holds (each an unavailable
 * database to its caller, retryable) and reconnects on a later statement.
 */
export class ReadLanes {
  readonly #config: LaneConfig;
  readonly #lanes: Lane[];
  readonly #maxInFlight: number;
  readonly #stallMs: number;
  #closed = false;

  constructor(config: LaneConfig, options: ReadLaneOptions = {}) {
    this.#config = config;
    this.#maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.#stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    this.#lanes = Array.from({ length: options.lanes ?? DEFAULT_READ_LANES }, () => ({
      client: null,
      connecting: false,
      sentAt: [],
      retryAt: 0,
      corked: false,
    }));
  }

  /** Connects every lane; resolves once each is connected or has failed (then the pool serves). */
  async open(): Promise<void> {
    await Promise.all(this.#lanes.map((lane) => this.#connect(lane)));
  }

  /** Runs the statement on the least busy lane that can take it; null when none can now. */
  query(statement: pg.QueryConfig): Promise<pg.QueryResult> | null {
    let best: Lane | null = null;
    let now = 0;
    for (const lane of this.#lanes) {
      if (lane.client === null) {
        this.#connect(lane);
        continue;
      }
      const waiting = lane.sentAt.length;
      if (waiting >= this.#maxInFlight || (best !== null && waiting >= best.sentAt.length)) continue;
      if (waiting > 0) {
        now ||= Date.now();
        if (now - lane.sentAt[0]! > this.#stallMs) continue;
      }
      best = lane;
    }
    if (best === null) return null;
    return this.#run(best, best.client!, statement);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      this.#lanes.map(async (lane) => {
        const client = lane.client;
        lane.client = null;
        await client?.end().catch(() => undefined);
      }),
    );
  }

  async #run(lane: Lane, client: pg.Client, statement: pg.QueryConfig): Promise<pg.QueryResult> {
    if (!lane.corked) {
      // Every statement of this turn goes out in one write when the turn ends.
      const stream = (client as unknown as { connection: { stream: CorkableStream } }).connection.stream;
      lane.corked = true;
      stream.cork();
      setImmediate(() => {
        lane.corked = false;
        stream.uncork();
      });
    }
    lane.sentAt.push(Date.now());
    try {
      return await client.query(statement);
    } finally {
      // Answers come in the order statements were written; a failed lane fails them all.
      lane.sentAt.shift();
    }
  }

  #connect(lane: Lane): Promise<void> | undefined {
    if (this.#closed || lane.connecting || Date.now() < lane.retryAt) return;
    lane.connecting = true;
    const client = new pg.Client({ ...this.#config, pipeline: true } as pg.ClientConfig);
    const drop = () => {
      if (lane.client === client) lane.client = null;
      lane.retryAt = Date.now() + RECONNECT_AFTER_MS;
    };
    client.on('error', drop);
    client.on('end', drop);
    return client.connect().then(
      () => {
        lane.connecting = false;
        if (this.#closed) {
          void client.end().catch(() => undefined);
          return;
        }
        lane.client = client;
      },
      () => {
        lane.connecting = false;
        drop();
      },
    );
  }
}

/**
 * Whether a statement only reads and cannot wait for a lock: it starts with SELECT, locks no rows,
 * creates no table (SELECT ... INTO) and calls no locking or sleeping function. A data-modifying WITH
 * does not start with SELECT. What a called function does is not visible here: a module whose SELECT
 * calls a function that writes or locks runs it in a transaction, which never uses a lane (at worst such
 * a statement holds the reads queued behind it until the statement timeout).
 */
export function isPlainRead(sql: string): boolean {
  return (
    /^\s*SELECT\b/i.test(sql) &&
    !/\bFOR\s+(UPDATE|SHARE|NO\s+KEY\s+UPDATE|KEY\s+SHARE)\b/i.test(sql) &&
    !/\bINTO\b/i.test(sql) &&
    !/\bpg_(advisory|try_advisory|sleep)/i.test(sql)
  );
}
