import Database from 'better-sqlite3';

/** A credit note row as the service stored it. */
export interface CreditNoteRow {
  readonly credit_note_id: string;
  readonly invoice_id: string;
  readonly amount_cents: number;
  readonly idempotency_key: string;
}

/**
 * The billing service's own tables, opened read-only: the tests judge what happened by the
 * service's data, not by what the gateway said.
 */
export class ServiceData {
  readonly #db: Database.Database;

  constructor(dbFile: string) {
    this.#db = new Database(dbFile, { readonly: true, fileMustExist: true });
  }

  /** Every credit note of an invoice. */
  creditNotes(invoiceId: string): CreditNoteRow[] {
    return this.#db
      .prepare<[string], CreditNoteRow>(
        'SELECT credit_note_id, invoice_id, amount_cents, idempotency_key FROM credit_notes WHERE invoice_id = ?',
      )
      .all(invoiceId);
  }

  /** Credit notes applied under one idempotency key (the gateway sends its operation id). */
  creditNotesUnderKey(key: string): CreditNoteRow[] {
    return this.#db
      .prepare<[string], CreditNoteRow>(
        'SELECT credit_note_id, invoice_id, amount_cents, idempotency_key FROM credit_notes WHERE idempotency_key = ?',
      )
      .all(key);
  }

  refundRequests(
    invoiceId: string,
  ): { refund_request_id: string; status: string; idempotency_key: string }[] {
    return this.#db
      .prepare<[string], { refund_request_id: string; status: string; idempotency_key: string }>(
        'SELECT refund_request_id, status, idempotency_key FROM refund_requests WHERE invoice_id = ?',
      )
      .all(invoiceId);
  }

  /** The invoice's credited total and version, straight from its row. */
  invoice(invoiceId: string): { credited_cents: number; version: number } {
    const row = this.#db
      .prepare<[string], { credited_cents: number; version: number }>(
        'SELECT credited_cents, version FROM invoices WHERE invoice_id = ?',
      )
      .get(invoiceId);
    if (!row) throw new Error(`no invoice ${invoiceId}`);
    return row;
  }

  close(): void {
    this.#db.close();
  }
}
