import type { Migration, SqlDatabase } from './sql-database.ts';

/**
 * Applies the migrations not yet recorded, in id order, each in its own transaction.
 * Concurrent starters on PostgreSQL serialize on an advisory lock.
 */
export async function runMigrations(db: SqlDatabase, migrations: readonly Migration[]): Promise<string[]> {
  // Modules built on a shared kit list the kit's migrations too: the same migration twice is applied once.
  const byId = new Map<string, Migration>();
  for (const m of migrations) {
    const known = byId.get(m.id);
    if (known && known !== m) throw new Error(`migration ${m.id} is defined twice`);
    byId.set(m.id, m);
  }
  const ordered = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return db.transaction(async (tx) => {
    if (tx.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(7340177)');
    await tx.execute(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)',
    );
    const done = new Set(
      (await tx.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id),
    );
    const applied: string[] = [];
    for (const migration of ordered) {
      if (done.has(migration.id)) continue;
      const script = typeof migration.sql === 'string' ? migration.sql : migration.sql[tx.dialect];
      for (const statement of splitStatements(script)) await tx.execute(statement);
      await tx.execute('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', [
        migration.id,
        Date.now(),
      ]);
      applied.push(migration.id);
    }
    return applied;
  });
}

function splitStatements(script: string): string[] {
  return script
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
