import type { EffectsLedger } from '@toolgate/simulation';
import type { SqlDatabase } from 'toolgate';

/**
 * A simulated external system for the test domain. It applies each credit once per request id
 * (the operation id the gateway sends) and records every applied credit in the effects ledger, so
 * tests count effects, not responses. It can be asked by request id what happened.
 */
export class TestBank {
  constructor(
    private readonly db: SqlDatabase,
    private readonly ledger: EffectsLedger,
    private readonly system: string,
  ) {}

  async credit(requestId: string, tenant: string, account: string, amount: number): Promise<void> {
    const inserted = await this.db.query(
      `INSERT INTO test_bank_credits (request_id, tenant, account, amount, at) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (request_id) DO NOTHING RETURNING request_id`,
      [requestId, tenant, account, amount, Date.now()],
    );
    if (inserted.length === 0) return;
    await this.ledger.record({
      system: this.system,
      action: 'credit',
      ref: account,
      tenant,
      requestId,
      data: { amount },
    });
  }

  async lookup(requestId: string): Promise<{ account: string; amount: number } | null> {
    const rows = await this.db.query<{ account: string; amount: number }>(
      'SELECT account, amount FROM test_bank_credits WHERE request_id = ?',
      [requestId],
    );
    return rows[0] ?? null;
  }
}
