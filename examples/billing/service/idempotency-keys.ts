import type { BillingDatabase } from './billing-database.ts';

/** A stored answer: the status and body the first request under a key received. */
export interface StoredAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What the service knows about a key. */
export type KeyState =
  | { readonly state: 'none' }
  | { readonly state: 'fenced' }
  | {
      readonly state: 'applied';
      readonly kind: string;
      readonly target: string;
      readonly answer: StoredAnswer;
    };

interface KeyRow {
  state: 'applied' | 'fenced';
  kind: string | null;
  target: string | null;
  http_status: number | null;
  response: string | null;
}

/**
 * The service's idempotency-key table. A key is `applied` (its effect committed, with the answer the
 * first request got) or `fenced` (someone asked about it before any request used it: it never will be).
 * Every method is synchronous so callers can run it inside the transaction that applies the effect.
 */
export class IdempotencyKeys {
  readonly #find;
  readonly #insertApplied;
  readonly #insertFenced;

  constructor(db: BillingDatabase) {
    this.#find = db.prepare<[string, string], KeyRow>(
      `SELECT state, kind, target, http_status, response FROM idempotency_keys
       WHERE tenant = ? AND idempotency_key = ?`,
    );
    this.#insertApplied = db.prepare(
      `INSERT INTO idempotency_keys (tenant, idempotency_key, state, kind, target, http_status, response, created_at)
       VALUES (?, ?, 'applied', ?, ?, ?, ?, ?)`,
    );
    this.#insertFenced = db.prepare(
      `INSERT OR IGNORE INTO idempotency_keys (tenant, idempotency_key, state, created_at)
       VALUES (?, ?, 'fenced', ?)`,
    );
  }

  /** The key's state for this tenant; keys of other tenants are invisible. */
  find(tenant: string, key: string): KeyState {
    const row = this.#find.get(tenant, key);
    if (!row) return { state: 'none' };
    if (row.state === 'fenced') return { state: 'fenced' };
    return {
      state: 'applied',
      kind: row.kind ?? '',
      target: row.target ?? '',
      answer: { status: row.http_status ?? 200, body: JSON.parse(row.response ?? 'null') },
    };
  }

  /** Records the committed effect's answer; the primary key makes a second effect under one key fail. */
  recordApplied(tenant: string, key: string, kind: string, target: string, answer: StoredAnswer): void {
    this.#insertApplied.run(
      tenant,
      key,
      kind,
      target,
      answer.status,
      JSON.stringify(answer.body),
      new Date().toISOString(),
    );
  }

  /**
   * Answers a lookup: the applied record, or `none` after fencing the key so that the answer stays
   * true forever (a request still in flight under this key will be refused with key_fenced).
   */
  lookupAndFence(tenant: string, key: string): KeyState {
    const known = this.find(tenant, key);
    if (known.state === 'applied') return known;
    this.#insertFenced.run(tenant, key, new Date().toISOString());
    return { state: 'none' };
  }
}
