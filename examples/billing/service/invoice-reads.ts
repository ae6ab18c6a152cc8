import type { BillingDatabase } from './billing-database.ts';
import type { Invoice } from './invoice-rules.ts';

/** A refund request as the service shows it. */
export interface RefundRequestView {
  readonly refund_request_id: string;
  readonly invoice_id: string;
  readonly amount_cents: number;
  readonly reason: string;
  readonly status: 'pending' | 'approved' | 'declined';
  readonly created_at: string;
  readonly decided_at: string | null;
}

/** GET /invoices/:id: the invoice, and the refund requests made against it. */
export interface InvoiceView {
  readonly invoice_id: string;
  readonly customer_id: string;
  readonly status: Invoice['status'];
  readonly amount_cents: number;
  readonly credited_cents: number;
  readonly version: number;
  readonly refund_requests: readonly Pick<
    RefundRequestView,
    'refund_request_id' | 'amount_cents' | 'status'
  >[];
}

/** Read queries over the service's tables, prepared once. */
export class InvoiceReads {
  readonly #invoice;
  readonly #refundsOf;
  readonly #refund;
  readonly #committedRefunds;

  constructor(db: BillingDatabase) {
    this.#invoice = db.prepare<[string, string], Invoice>(
      'SELECT * FROM invoices WHERE tenant = ? AND invoice_id = ?',
    );
    this.#refundsOf = db.prepare<[string, string], InvoiceView['refund_requests'][number]>(
      `SELECT refund_request_id, amount_cents, status FROM refund_requests
       WHERE tenant = ? AND invoice_id = ? ORDER BY created_at, refund_request_id`,
    );
    this.#refund = db.prepare<[string, string], RefundRequestView>(
      `SELECT refund_request_id, invoice_id, amount_cents, reason, status, created_at, decided_at
       FROM refund_requests WHERE tenant = ? AND refund_request_id = ?`,
    );
    this.#committedRefunds = db.prepare<[string, string], { cents: number }>(
      `SELECT COALESCE(SUM(amount_cents), 0) AS cents FROM refund_requests
       WHERE tenant = ? AND invoice_id = ? AND status IN ('pending', 'approved')`,
    );
  }

  /** The invoice when it exists and belongs to this customer; another customer's is "not found". */
  invoiceFor(tenant: string, customer: string, invoiceId: string): Invoice | null {
    const invoice = this.#invoice.get(tenant, invoiceId);
    return invoice && invoice.customer_id === customer ? invoice : null;
  }

  /** Any invoice of the tenant, for the finance team's admin routes. */
  invoice(tenant: string, invoiceId: string): Invoice | null {
    return this.#invoice.get(tenant, invoiceId) ?? null;
  }

  /** What GET /invoices/:id answers: the row without its tenant, with the refund decisions so far. */
  invoiceView(invoice: Invoice): InvoiceView {
    return {
      invoice_id: invoice.invoice_id,
      customer_id: invoice.customer_id,
      status: invoice.status,
      amount_cents: invoice.amount_cents,
      credited_cents: invoice.credited_cents,
      version: invoice.version,
      refund_requests: this.#refundsOf.all(invoice.tenant, invoice.invoice_id),
    };
  }

  /** A refund request of the tenant; the caller checks whose invoice it belongs to. */
  refundRequest(tenant: string, refundRequestId: string): RefundRequestView | null {
    return this.#refund.get(tenant, refundRequestId) ?? null;
  }

  /** Cents already claimed by pending or approved refunds of this invoice. */
  committedRefundCents(tenant: string, invoiceId: string): number {
    return this.#committedRefunds.get(tenant, invoiceId)?.cents ?? 0;
  }
}
