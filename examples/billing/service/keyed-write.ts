import type { BillingDatabase } from './billing-database.ts';
import type { IdempotencyKeys, StoredAnswer } from './idempotency-keys.ts';

/** An answer to a keyed write, and whether it is the stored answer of an earlier request. */
export interface KeyedAnswer extends StoredAnswer {
  readonly replayed: boolean;
}

/** Which write a key belongs to: a key is bound to one kind of write on one resource. */
export interface KeyScope {
  readonly tenant: string;
  readonly key: string;
  readonly kind: 'credit_note' | 'refund_request';
  readonly target: string;
}

/**
 * Runs one write under an idempotency key, in one SQLite transaction with the key check, so that the
 * effect and the key's record commit together or not at all: the same key never applies twice, a
 * fenced key never applies, and a key reused for another write is refused.
 */
export function runKeyedWrite(
  db: BillingDatabase,
  keys: IdempotencyKeys,
  scope: KeyScope,
  apply: () => StoredAnswer,
): KeyedAnswer {
  const write = db.transaction((): KeyedAnswer => {
    const known = keys.find(scope.tenant, scope.key);
    if (known.state === 'fenced') {
      return { status: 409, body: { error: 'key_fenced' }, replayed: false };
    }
    if (known.state === 'applied') {
      if (known.kind !== scope.kind || known.target !== scope.target) {
        return { status: 422, body: { error: 'key_reused' }, replayed: false };
      }
      return { ...known.answer, replayed: true };
    }
    const answer = apply();
    // A refusal changed nothing, so it is not stored: the key stays free for a corrected request.
    if (answer.status < 300) keys.recordApplied(scope.tenant, scope.key, scope.kind, scope.target, answer);
    return { ...answer, replayed: false };
  });
  // IMMEDIATE takes the write lock before the first read, so the checks see what the commit writes over.
  return write.immediate();
}
