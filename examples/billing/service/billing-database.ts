import Database from 'better-sqlite3';

/** The billing service's own database handle (better-sqlite3, synchronous). */
export type BillingDatabase = Database.Database;

// Every effect the service applies is a row here, so anyone can audit it with the sqlite3 shell.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS invoices (
  tenant TEXT NOT NULL,
  invoice_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'void')),
  amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
  credited_cents INTEGER NOT NULL DEFAULT 0,
  version INTEGER NOT NULL DEFAULT 1,
  PRIMARY KEY (tenant, invoice_id)
);
CREATE TABLE IF NOT EXISTS credit_notes (
  credit_note_id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  invoice_id TEXT NOT NULL,
  amount_cents INTEGER NOT NULL,
  reason TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS refund_requests (
  refund_request_id TEXT PRIMARY KEY,
  tenant TEXT NOT NULL,
  invoice_id TEXT NOT NULL,
  amount_cents INTEGER NOT NULL,
  reason TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined')),
  idempotency_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  decided_at TEXT
);
CREATE TABLE IF NOT EXISTS idempotency_keys (
  tenant TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('applied', 'fenced')),
  kind TEXT,
  target TEXT,
  http_status INTEGER,
  response TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant, idempotency_key)
);
`;

/** The demo world: tenant acme, customer cus_acme_alice, invoices in each state. */
const SEED_INVOICES = [
  { invoice_id: 'inv_acme_0001', status: 'open', amount_cents: 500_000 },
  { invoice_id: 'inv_acme_0002', status: 'open', amount_cents: 12_000 },
  { invoice_id: 'inv_acme_0003', status: 'paid', amount_cents: 48_000 },
  { invoice_id: 'inv_acme_0004', status: 'void', amount_cents: 9_900 },
] as const;

/** The tenant and customer the seed belongs to (and the example's dev token names). */
export const SEED_TENANT = 'acme';
export const SEED_CUSTOMER = 'cus_acme_alice';

/**
 * Opens (or creates) the service's SQLite file in WAL mode, creates the schema and inserts the seed
 * once; a restart keeps every row, which is what lets a killed service resume its own history.
 */
export function openBillingDatabase(file: string): BillingDatabase {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // FULL: a committed credit note survives a SIGKILL right after commit, which the tests rely on.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  db.transaction(() => insertSeed(db))();
  return db;
}

function insertSeed(db: BillingDatabase): void {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO invoices (tenant, invoice_id, customer_id, status, amount_cents)
     VALUES (?, ?, ?, ?, ?)`,
  );
  for (const invoice of SEED_INVOICES) {
    insert.run(SEED_TENANT, invoice.invoice_id, SEED_CUSTOMER, invoice.status, invoice.amount_cents);
  }
}

/**
 * Back to the seed in one transaction: every credit note, refund request and idempotency key gone,
 * the invoices as first inserted. For an evaluation instance only (BILLING_ENABLE_RESET=1).
 */
export function resetBillingDatabase(db: BillingDatabase): void {
  db.transaction(() => {
    for (const table of ['credit_notes', 'refund_requests', 'idempotency_keys', 'invoices']) {
      db.exec(`DELETE FROM ${table}`);
    }
    insertSeed(db);
  })();
}
