import type { SqlExecutor } from '../store/sql-database.ts';
import type { QueryProblem } from './operator-query.ts';

/** Statuses that mean an operation waits for settlement: the review backlog. */
const BACKLOG_STATUSES = ['outcome_unknown', 'needs_review'] as const;
type BacklogStatus = (typeof BACKLOG_STATUSES)[number];

/** Every window is cut into this many buckets (24 hours: one an hour). */
export const ACTIVITY_BUCKETS = 24;
export const MAX_ACTIVITY_HOURS = 72;
const DEFAULT_ACTIVITY_HOURS = 24;

/** The window the charts cover, as epoch ms. */
export interface ActivityWindow {
  readonly from: number;
  readonly to: number;
  readonly bucketMs: number;
  /** When it is read: the window's end may lie past it, in its last, still open bucket. */
  readonly now: number;
}

/**
 * Call counts are kept per slot of this length once the slot has closed (activity_slots). Every
 * window's bucket is a whole number of slots: a bucket is `hours` x 150 s.
 */
export const ACTIVITY_SLOT_MS = 150_000;
/**
 * How long after a slot ends its counts are kept: an audit entry commits within moments of the time it
 * carries (a gateway's clock, a group commit), so one that commits more than this late into a kept slot
 * is not counted there.
 */
const SLOT_SETTLE_MS = 120_000;
/** Operation ids one statement of the backlog chart names at most. */
const IDS_PER_STATEMENT = 500;
/** Slots kept per statement that writes them. */
const SLOTS_PER_WRITE = 500;

/** The backlog at one instant: operations of the tenant awaiting settlement, by status. */
export interface BacklogPoint {
  readonly at: string;
  readonly outcome_unknown: number;
  readonly needs_review: number;
}

/** Audited tool calls of the tenant in one bucket, by the status they answered. */
export interface CallsBucket {
  readonly from: string;
  readonly to: string;
  readonly counts: Record<string, number>;
}

export interface ActivityHistory {
  readonly from: string;
  readonly to: string;
  readonly bucket_seconds: number;
  readonly backlog: BacklogPoint[];
  readonly calls: CallsBucket[];
}

/** `?hours=` (1 to 72, default 24): the window ending now. */
export function parseActivityWindow(
  params: URLSearchParams,
  now: number,
): { ok: true; value: ActivityWindow } | { ok: false; problems: QueryProblem[] } {
  const raw = params.get('hours');
  const hours = raw === null ? DEFAULT_ACTIVITY_HOURS : Number(raw);
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_ACTIVITY_HOURS) {
    return {
      ok: false,
      problems: [{ parameter: 'hours', message: `must be a whole number from 1 to ${MAX_ACTIVITY_HOURS}` }],
    };
  }
  const bucketMs = (hours * 3_600_000) / ACTIVITY_BUCKETS;
  // Buckets end on whole multiples of their length, so the same window reads the same way twice.
  const to = Math.ceil(now / bucketMs) * bucketMs;
  return { ok: true, value: { from: to - hours * 3_600_000, to, bucketMs, now } };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The tenant's review backlog and calls by status over the window, from the durable audit trail:
 * an operation counts in the backlog at an instant when its latest audit entry by then has a backlog
 * status (the call that left it unknown, the reconciler's steps, the operator's decision all write one).
 * Calls are the audited ones: every write and request, and every refusal of authority.
 */
export async function readActivityHistory(
  db: SqlExecutor,
  tenant: string,
  window: ActivityWindow,
): Promise<ActivityHistory> {
  const [backlog, calls] = await Promise.all([
    readBacklogPoints(db, tenant, window),
    readCallBuckets(db, tenant, window),
  ]);
  return {
    from: iso(window.from),
    to: iso(window.to),
    bucket_seconds: window.bucketMs / 1000,
    backlog,
    calls,
  };
}

async function readBacklogPoints(
  db: SqlExecutor,
  tenant: string,
  { from, to, bucketMs }: ActivityWindow,
): Promise<BacklogPoint[]> {
  // An operation that entered or left the backlog inside the window (a call or reconciler step leaving
  // it unknown, a settlement, a decision) is drawn from its history. One in the backlog now that did
  // neither was in it, as it is now, through the whole window: it is counted, not followed.
  const movedRows = await db.query<{ operation_id: string | null }>(
    `SELECT DISTINCT operation_id FROM audit_log
      WHERE tenant = ? AND at >= ? AND at < ?
        AND (status IN ('outcome_unknown', 'needs_review')
             OR action IN ('operations_reconcile', 'operations_review_resolve'))`,
    [tenant, from, to],
  );
  const moved = movedRows.flatMap((r) => (r.operation_id === null ? [] : [r.operation_id]));
  const steady: Record<BacklogStatus, number> = { outcome_unknown: 0, needs_review: 0 };
  const inBacklog = await db.query<{ status: BacklogStatus; n: unknown }>(
    `SELECT status, COUNT(*) AS n FROM operations
      WHERE tenant = ? AND status IN ('outcome_unknown', 'needs_review') GROUP BY status`,
    [tenant],
  );
  for (const row of inBacklog) steady[row.status] += Number(row.n);
  const rows: { operation_id: string; at: unknown; status: string }[] = [];
  for (let i = 0; i < moved.length; i += IDS_PER_STATEMENT) {
    const ids = moved.slice(i, i + IDS_PER_STATEMENT);
    const marks = ids.map(() => '?').join(', ');
    rows.push(
      ...(await db.query<{ operation_id: string; at: unknown; status: string }>(
        `SELECT operation_id, at, status FROM audit_log
          WHERE tenant = ? AND at < ? AND operation_id IN (${marks})
          ORDER BY operation_id, seq`,
        [tenant, to, ...ids],
      )),
    );
    // Those of them in the backlog now are drawn from their history, not counted as steady.
    const followed = await db.query<{ status: BacklogStatus }>(
      `SELECT status FROM operations
        WHERE tenant = ? AND status IN ('outcome_unknown', 'needs_review') AND id IN (${marks})`,
      [tenant, ...ids],
    );
    for (const row of followed) steady[row.status] -= 1;
  }
  // Per operation, the instants its status changed, in order.
  const changes = new Map<string, { at: number; status: string }[]>();
  for (const row of rows) {
    const list = changes.get(row.operation_id) ?? [];
    if (list.at(-1)?.status !== row.status) list.push({ at: Number(row.at), status: row.status });
    changes.set(row.operation_id, list);
  }
  const points: BacklogPoint[] = [];
  for (let end = from + bucketMs; end <= to; end += bucketMs) {
    const counts: Record<BacklogStatus, number> = { ...steady };
    for (const list of changes.values()) {
      const status = statusAt(list, end);
      if (status === 'outcome_unknown' || status === 'needs_review') counts[status] += 1;
    }
    points.push({ at: iso(end), ...counts });
  }
  return points;
}

/** The status of an operation at `instant` (inclusive): its latest change by then, if any. */
function statusAt(list: readonly { at: number; status: string }[], instant: number): string | null {
  let status: string | null = null;
  for (const change of list) {
    if (change.at > instant) break;
    status = change.status;
  }
  return status;
}

async function readCallBuckets(
  db: SqlExecutor,
  tenant: string,
  window: ActivityWindow,
): Promise<CallsBucket[]> {
  const { from, to, bucketMs, now } = window;
  const buckets: CallsBucket[] = [];
  for (let start = from; start < to; start += bucketMs) {
    buckets.push({ from: iso(start), to: iso(start + bucketMs), counts: {} });
  }
  const add = (at: number, status: string, n: number) => {
    const bucket = buckets[Math.floor((at - from) / bucketMs)];
    if (bucket) bucket.counts[status] = (bucket.counts[status] ?? 0) + n;
  };
  // Closed slots are read as kept (and kept now where they are not yet); the rest is counted live. A
  // window that does not start on a slot (none the API draws) is counted live throughout.
  const aligned = from % ACTIVITY_SLOT_MS === 0 && bucketMs % ACTIVITY_SLOT_MS === 0;
  const closed = Math.floor((now - SLOT_SETTLE_MS) / ACTIVITY_SLOT_MS) * ACTIVITY_SLOT_MS;
  const kept = aligned ? Math.max(from, Math.min(to, closed)) : from;
  for (const [slot, counts] of await keptSlots(db, tenant, from, kept, now)) {
    for (const [status, n] of Object.entries(counts)) add(slot, status, n);
  }
  for (const row of await countCalls(db, tenant, from, kept, to, bucketMs)) add(row.start, row.status, row.n);
  return buckets;
}

/** Calls of the tenant in [from, to) by status, in steps of `stepMs` counted from `origin`. */
async function countCalls(
  db: SqlExecutor,
  tenant: string,
  origin: number,
  from: number,
  to: number,
  stepMs: number,
) {
  if (from >= to) return [];
  // An entry whose action is its tool's name is a call (not a reconciler step or an operator's decision).
  const rows = await db.query<{ step: unknown; status: string; n: unknown }>(
    `SELECT CAST((at - ?) / ? AS INTEGER) AS step, status, COUNT(*) AS n FROM audit_log
      WHERE tenant = ? AND at >= ? AND at < ? AND action = tool
      GROUP BY 1, 2`,
    [origin, stepMs, tenant, from, to],
  );
  return rows.map((r) => ({
    start: origin + Math.floor(Number(r.step)) * stepMs,
    status: r.status,
    n: Number(r.n),
  }));
}

/**
 * The counts of every slot in [from, to) (closed slots), by slot start: those kept, and those not yet
 * kept counted from the audit trail in one statement per run of missing slots, then kept for the next
 * read. Gateways sharing the store may keep the same slot at once: both count the same entries, and
 * the first write stands.
 */
async function keptSlots(
  db: SqlExecutor,
  tenant: string,
  from: number,
  to: number,
  now: number,
): Promise<Map<number, Record<string, number>>> {
  const slots = new Map<number, Record<string, number>>();
  if (from >= to) return slots;
  const rows = await db.query<{ slot_start: unknown; counts: string }>(
    'SELECT slot_start, counts FROM activity_slots WHERE tenant = ? AND slot_start >= ? AND slot_start < ?',
    [tenant, from, to],
  );
  for (const row of rows) slots.set(Number(row.slot_start), JSON.parse(row.counts) as Record<string, number>);
  const fresh: number[] = [];
  let start = from;
  while (start < to) {
    if (slots.has(start)) {
      start += ACTIVITY_SLOT_MS;
      continue;
    }
    // A run of missing slots ends at the next kept one (or at `to`): counted in one statement.
    let end = start;
    while (end < to && !slots.has(end)) {
      slots.set(end, {});
      fresh.push(end);
      end += ACTIVITY_SLOT_MS;
    }
    for (const row of await countCalls(db, tenant, start, start, end, ACTIVITY_SLOT_MS)) {
      slots.get(row.start)![row.status] = row.n;
    }
    start = end;
  }
  // Kept after the answer, not before it: a read never waits for a write. A keep that fails (the
  // store closing, a conflict) loses nothing: the next read counts those slots again.
  if (fresh.length > 0) keepSlots(db, tenant, fresh, slots, now).catch(() => {});
  return slots;
}

/** Writes the fresh slots' counts and drops the tenant's slots older than any window reads. */
async function keepSlots(
  db: SqlExecutor,
  tenant: string,
  fresh: readonly number[],
  slots: ReadonlyMap<number, Record<string, number>>,
  now: number,
): Promise<void> {
  for (let i = 0; i < fresh.length; i += SLOTS_PER_WRITE) {
    const batch = fresh.slice(i, i + SLOTS_PER_WRITE);
    await db.execute(
      `INSERT INTO activity_slots (tenant, slot_start, counts) VALUES ${batch.map(() => '(?, ?, ?)').join(', ')}
        ON CONFLICT (tenant, slot_start) DO NOTHING`,
      batch.flatMap((start) => [tenant, start, JSON.stringify(slots.get(start))]),
    );
  }
  await db.execute('DELETE FROM activity_slots WHERE tenant = ? AND slot_start < ?', [
    tenant,
    now - MAX_ACTIVITY_HOURS * 3_600_000 - ACTIVITY_SLOT_MS,
  ]);
}
