import { randomBytes } from 'node:crypto';
import type { BillingDatabase } from './billing-database.ts';
import { IdempotencyKeys, type KeyState } from './idempotency-keys.ts';
import { InvoiceReads } from './invoice-reads.ts';
import {
  type CreditNoteRequest,
  creditNoteRefusal,
  type RefundRequest,
  refundRefusal,
} from './invoice-rules.ts';
import { type KeyedAnswer, runKeyedWrite } from './keyed-write.ts';

/** Who is asking: the tenant and customer the gateway vouches for. */
export interface Caller {
  readonly tenant: string;
  readonly customer: string;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString('hex')}`;
const NOT_FOUND = { status: 404, body: { error: 'invoice_not_found' } } as const;

/**
 * The billing service's write side: every effect is checked by the rules and committed in one
 * transaction with its idempotency-key record, so the tables are the whole truth about what happened.
 */
export class BillingService {
  readonly reads: InvoiceReads;
  readonly #keys: IdempotencyKeys;
  readonly #db: BillingDatabase;
  readonly #insertCreditNote;
  readonly #creditInvoice;
  readonly #insertRefund;
  readonly #decideRefund;

  constructor(db: BillingDatabase) {
    this.#db = db;
    this.reads = new InvoiceReads(db);
    this.#keys = new IdempotencyKeys(db);
    this.#insertCreditNote = db.prepare(
      `INSERT INTO credit_notes (credit_note_id, tenant, invoice_id, amount_cents, reason, idempotency_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#creditInvoice = db.prepare(
      `UPDATE invoices SET credited_cents = credited_cents + ?, version = version + 1
       WHERE tenant = ? AND invoice_id = ? RETURNING version`,
    );
    this.#insertRefund = db.prepare(
      `INSERT INTO refund_requests (refund_request_id, tenant, invoice_id, amount_cents, reason, status,
         idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`,
    );
    this.#decideRefund = db.prepare(
      `UPDATE refund_requests SET status = ?, decided_at = ?
       WHERE tenant = ? AND refund_request_id = ? AND status = 'pending'`,
    );
  }

  /** Applies a credit note once per key: 201 with the note, or the refusal the rules name. */
  issueCreditNote(caller: Caller, invoiceId: string, key: string, request: CreditNoteRequest): KeyedAnswer {
    const scope = { tenant: caller.tenant, key, kind: 'credit_note', target: invoiceId } as const;
    return runKeyedWrite(this.#db, this.#keys, scope, () => {
      const invoice = this.reads.invoiceFor(caller.tenant, caller.customer, invoiceId);
      if (!invoice) return NOT_FOUND;
      const refusal = creditNoteRefusal(invoice, request);
      if (refusal) return refusal;
      const creditNoteId = newId('cn');
      const now = new Date().toISOString();
      this.#insertCreditNote.run(
        creditNoteId,
        caller.tenant,
        invoiceId,
        request.amount_cents,
        request.reason,
        key,
        now,
      );
      const { version } = this.#creditInvoice.get(request.amount_cents, caller.tenant, invoiceId) as {
        version: number;
      };
      return {
        status: 201,
        body: {
          credit_note_id: creditNoteId,
          invoice_id: invoiceId,
          amount_cents: request.amount_cents,
          invoice_version: version,
        },
      };
    });
  }

  /** Files a refund request once per key: 202 pending; finance decides later. */
  requestRefund(caller: Caller, invoiceId: string, key: string, request: RefundRequest): KeyedAnswer {
    const scope = { tenant: caller.tenant, key, kind: 'refund_request', target: invoiceId } as const;
    return runKeyedWrite(this.#db, this.#keys, scope, () => {
      const invoice = this.reads.invoiceFor(caller.tenant, caller.customer, invoiceId);
      if (!invoice) return NOT_FOUND;
      const committed = this.reads.committedRefundCents(caller.tenant, invoiceId);
      const refusal = refundRefusal(invoice, request, committed);
      if (refusal) return refusal;
      const refundRequestId = newId('rr');
      const now = new Date().toISOString();
      this.#insertRefund.run(
        refundRequestId,
        caller.tenant,
        invoiceId,
        request.amount_cents,
        request.reason,
        key,
        now,
      );
      return {
        status: 202,
        body: {
          refund_request_id: refundRequestId,
          invoice_id: invoiceId,
          amount_cents: request.amount_cents,
          status: 'pending',
        },
      };
    });
  }

  /** The finance team's decision; a request is decided once. */
  decideRefund(tenant: string, refundRequestId: string, decision: 'approved' | 'declined') {
    const changed = this.#decideRefund.run(
      decision,
      new Date().toISOString(),
      tenant,
      refundRequestId,
    ).changes;
    const current = this.reads.refundRequest(tenant, refundRequestId);
    if (!current) return { status: 404, body: { error: 'refund_request_not_found' } } as const;
    if (changed === 0)
      return { status: 409, body: { error: 'already_decided', status: current.status } } as const;
    return { status: 200, body: current } as const;
  }

  /** GET /operations/:key: what happened under a key; "nothing" is made permanent by fencing the key. */
  lookupOperation(tenant: string, key: string): KeyState {
    return this.#db.transaction(() => this.#keys.lookupAndFence(tenant, key)).immediate();
  }
}
