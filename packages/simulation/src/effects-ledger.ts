import type { Migration, SqlDatabase, SqlExecutor } from 'toolgate';

/** One effect a simulated external system actually applied. */
export interface Effect {
  readonly id: number;
  readonly system: string;
  readonly action: string;
  /** The business object affected (order id, shipment id, work item id, change id). */
  readonly ref: string;
  readonly tenant: string;
  /** The operation or request id the caller sent, by which the system deduplicates. */
  readonly requestId: string | null;
  readonly data: Record<string, unknown>;
  readonly at: number;
}

export interface EffectFilter {
  readonly system?: string;
  readonly ref?: string;
  readonly action?: string;
  readonly requestId?: string;
}

export const effectsLedgerMigration: Migration = {
  id: '0002_effects_ledger',
  sql: {
    sqlite: `CREATE TABLE effects (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      system TEXT NOT NULL, action TEXT NOT NULL, ref TEXT NOT NULL, tenant TEXT NOT NULL,
      request_id TEXT, data TEXT NOT NULL, at BIGINT NOT NULL);
    CREATE INDEX effects_by_ref ON effects (system, ref)`,
    postgres: `CREATE TABLE effects (
      id BIGSERIAL PRIMARY KEY,
      system TEXT NOT NULL, action TEXT NOT NULL, ref TEXT NOT NULL, tenant TEXT NOT NULL,
      request_id TEXT, data TEXT NOT NULL, at BIGINT NOT NULL);
    CREATE INDEX effects_by_ref ON effects (system, ref)`,
  },
};

/**
 * The record of every effect the simulated systems applied, kept in the database so it survives a
 * crash of the gateway and can be inspected by tests and the evaluation harness. Never holds
 * credentials; systems store only what a test needs to judge the effect.
 */
export class EffectsLedger {
  constructor(private readonly db: SqlDatabase) {}

  /** Records one effect; pass the transaction that applies the effect so both commit together. */
  async record(effect: Omit<Effect, 'id' | 'at'>, via: SqlExecutor = this.db): Promise<void> {
    await via.execute(
      'INSERT INTO effects (system, action, ref, tenant, request_id, data, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        effect.system,
        effect.action,
        effect.ref,
        effect.tenant,
        effect.requestId,
        JSON.stringify(effect.data),
        Date.now(),
      ],
    );
  }

  async list(filter: EffectFilter = {}): Promise<Effect[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.system) where.push('system = ?') && params.push(filter.system);
    if (filter.ref) where.push('ref = ?') && params.push(filter.ref);
    if (filter.action) where.push('action = ?') && params.push(filter.action);
    if (filter.requestId) where.push('request_id = ?') && params.push(filter.requestId);
    const rows = await this.db.query<{
      id: number;
      system: string;
      action: string;
      ref: string;
      tenant: string;
      request_id: string | null;
      data: string;
      at: number;
    }>(`SELECT * FROM effects${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id`, params);
    return rows.map((r) => ({
      id: Number(r.id),
      system: r.system,
      action: r.action,
      ref: r.ref,
      tenant: r.tenant,
      requestId: r.request_id,
      data: JSON.parse(r.data) as Record<string, unknown>,
      at: Number(r.at),
    }));
  }

  /** Deletes the effects of these systems, or every effect when none are named. */
  async clear(systems?: readonly string[]): Promise<void> {
    if (!systems) return void (await this.db.execute('DELETE FROM effects'));
    for (const system of systems) await this.db.execute('DELETE FROM effects WHERE system = ?', [system]);
  }
}
