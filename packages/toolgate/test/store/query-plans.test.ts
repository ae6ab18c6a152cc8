import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../../test/operations/harness.ts';
import { seedStore } from '../../../../test/support/seed-store.ts';
import { type StoreLocation, storeTargets } from '../../../../test/support/store-targets.ts';
import type { App } from '../../src/app/create-app.ts';
import { AuditLog } from '../../src/operations/audit-log.ts';
import { OperationStore } from '../../src/operations/operation-store.ts';
import { DEFAULT_OPERATIONS_TUNING } from '../../src/operations/operations-tuning.ts';
import { OperatorConfirmations } from '../../src/operations/operator-confirmations.ts';
import { ReconcileQueue } from '../../src/operations/reconcile-queue.ts';
import { Reconciler } from '../../src/operations/reconciler.ts';
import { purgeExpiredOperations } from '../../src/operations/retention.ts';
import { ReviewQueue } from '../../src/operations/review-queue.ts';
import { readSettlementBacklog } from '../../src/operations/settlement-backlog.ts';
import { parseActivityWindow, readActivityHistory } from '../../src/operator/activity-history.ts';
import { findTenantOperation, listOperations } from '../../src/operator/operation-listing.ts';
import type { SqlDatabase, SqlExecutor } from '../../src/store/sql-database.ts';

/**
 * The tables that grow with traffic, and the activity's kept slots (bounded, but read on every chart):
 * a statement that reads them whole costs more every day.
 */
const BIG_TABLES = ['operations', 'audit_log', 'activity_slots'];
const SEEDED = 20_000;
const HOUR = 3_600_000;

interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** `db` with every statement it runs (in and out of transactions) noted in `seen`. */
function recording(db: SqlDatabase, seen: Statement[]): SqlDatabase {
  const wrap = <T extends SqlExecutor>(target: T): T =>
    new Proxy(target, {
      get(t, property) {
        if (property === 'query' || property === 'execute') {
          return (sql: string, params: readonly unknown[] = []) => {
            seen.push({ sql, params });
            return t[property](sql, params);
          };
        }
        if (property === 'transaction') {
          return (work: (tx: SqlExecutor) => Promise<unknown>) =>
            (t as unknown as SqlDatabase).transaction((tx) => work(wrap(tx)));
        }
        if (property === 'writeTogether') {
          return (lead: Statement, work: (tx: SqlExecutor) => Promise<void>) => {
            seen.push(lead);
            return (t as unknown as SqlDatabase).writeTogether(lead, (tx) => work(wrap(tx)));
          };
        }
        const value = Reflect.get(t, property, t);
        return typeof value === 'function' ? value.bind(t) : value;
      },
    });
  return wrap(db);
}

/** Plan steps that read a big table row by row, without an index. */
async function fullScans(db: SqlDatabase, statement: Statement): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    return (await sqlitePlan(db, statement)).filter(
      (d) => BIG_TABLES.some((t) => new RegExp(`^SCAN ${t}\\b`).test(d)) && !/USING .*INDEX/.test(d),
    );
  }
  return (await postgresPlanNodes(db, statement))
    .filter((node) => node['Node Type'] === 'Seq Scan' && BIG_TABLES.includes(String(node['Relation Name'])))
    .map((node) => `Seq Scan on ${String(node['Relation Name'])}`);
}

/** The indexes a statement's plan reads, by name. */
async function indexesUsed(db: SqlDatabase, statement: Statement): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    return (await sqlitePlan(db, statement)).flatMap(
      (d) => /USING (?:COVERING )?INDEX (\w+)/.exec(d)?.[1] ?? [],
    );
  }
  return (await postgresPlanNodes(db, statement)).flatMap((node) =>
    typeof node['Index Name'] === 'string' ? [node['Index Name']] : [],
  );
}

/** SQLite's plan of a statement, one detail line per step. */
async function sqlitePlan(db: SqlDatabase, { sql, params }: Statement): Promise<string[]> {
  const rows = await db.query<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
  return rows.map((r) => r.detail);
}

/** Every node of PostgreSQL's plan of a statement. */
async function postgresPlanNodes(
  db: SqlDatabase,
  { sql, params }: Statement,
): Promise<Record<string, unknown>[]> {
  const [row] = await db.transaction(async (tx) => {
    // Where an index can serve, the planner must take it however small the seeded table.
    await tx.execute('SET LOCAL enable_seqscan = off');
    return tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  });
  const plan = row!['QUERY PLAN'];
  const nodes: Record<string, unknown>[] = [];
  const walk = (node: Record<string, unknown>) => {
    nodes.push(node);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  for (const entry of (typeof plan === 'string' ? JSON.parse(plan) : plan) as {
    Plan: Record<string, unknown>;
  }[]) {
    walk(entry.Plan);
  }
  return nodes;
}

for (const target of storeTargets) {
  if (!target.available) {
    console.warn(`\n!!! query plans on ${target.dialect} are SKIPPED: set TOOLGATE_TEST_DATABASE_URL !!!\n`);
  }
  describe.skipIf(!target.available)(
    `query plans of the operator API and the reconciler on ${target.dialect}`,
    () => {
      let location: StoreLocation;
      let app: App;
      const now = Date.now();
      const seen: Statement[] = [];

      beforeAll(async () => {
        location = await target.create();
        app = await startTestApp(location.config);
        await seedStore(app.db, {
          operations: SEEDED,
          tenants: ['tenant-a', 'tenant-b', 'tenant-c', 'tenant-d'],
          tool: 'testing_credit_account',
          now,
          spanMs: 30 * 24 * HOUR,
          // Half the rows are past their retention, so the purge has work to plan.
          retentionMs: 15 * 24 * HOUR,
        });
        const db = recording(app.db, seen);
        const logger = pino({ level: 'silent' });
        const audit = new AuditLog(db, logger);
        const tenant = 'tenant-a';
        const [some] = await listOperations(app.db, tenant, { limit: 1, status: 'completed' });
        const id = some!.id;
        const afterId = id;
        for (const filter of [
          {},
          { status: 'completed' as const },
          { status: 'needs_review' as const },
          { tool: 'testing_credit_account' },
          { since: now - HOUR },
          { status: 'completed' as const, tool: 'testing_credit_account' },
          { status: 'completed' as const, since: now - 24 * HOUR, afterId },
          { afterId },
        ]) {
          await listOperations(db, tenant, { ...filter, limit: 50 });
        }
        await findTenantOperation(db, tenant, id);
        for (const query of [
          {},
          { operationId: id },
          { subject: 'agent-07' },
          { since: now - HOUR },
          { after: 100 },
          { subject: 'agent-07', after: 100 },
        ]) {
          await audit.list({ tenant, limit: 50, ...query });
        }
        // The windows the API draws: their closed slots are counted and kept, then read as kept.
        for (const hours of ['24', '72', '72']) {
          const window = parseActivityWindow(new URLSearchParams({ hours }), now);
          if (!window.ok) throw new Error('the activity window did not parse');
          await readActivityHistory(db, tenant, window.value);
        }
        const clock = { now: () => now + 2 * HOUR };
        const confirmations = new OperatorConfirmations({
          db,
          clock,
          catalog: app.registry.catalog(),
          audit,
          retentionSeconds: 86_400,
        });
        await confirmations.pending(tenant, 200);
        await confirmations.find(tenant, id);
        const reviews = new ReviewQueue(db, app.registry.catalog(), audit);
        await reviews.pending(tenant);
        await reviews.pending();
        await reviews.history(id);
        await readSettlementBacklog(db);
        // The reconciler's pass over the seeded unknown outcomes (due an hour after `now`).
        await confirmations.expireDue(clock.now(), DEFAULT_OPERATIONS_TUNING.reconcileBatch);
        await new Reconciler({
          store: new OperationStore(db),
          queue: new ReconcileQueue(db),
          registry: app.registry,
          clock,
          tuning: { ...DEFAULT_OPERATIONS_TUNING, reconcileBatch: 5 },
          retentionSeconds: 86_400,
          logger,
          audit,
        }).runOnce();
        // The retention purge, as the runtime runs it.
        await audit.purge(now - 20 * 24 * HOUR);
        await purgeExpiredOperations(db, now);
        await confirmations.purgeOrphans();
      }, 120_000);
      afterAll(async () => {
        await app?.close();
        await location?.dispose();
      });

      it('ran the statements it plans: listings, audit, activity, reconciler pass and purge', () => {
        const texts = seen.map((s) => s.sql);
        for (const fragment of [
          'FROM operations WHERE tenant = ? AND status = ?',
          'FROM audit_log WHERE tenant = ? AND subject = ?',
          'operation_id IN',
          'FROM activity_slots WHERE tenant = ?',
          'INSERT INTO activity_slots',
          'DELETE FROM activity_slots WHERE tenant = ?',
          "status = 'outcome_unknown' AND next_check_at <= ?",
          "status = 'in_progress' AND next_check_at <= ?",
          'DELETE FROM operations WHERE id IN',
          'DELETE FROM audit_log WHERE seq IN',
        ]) {
          expect(
            texts.some((t) => t.includes(fragment)),
            fragment,
          ).toBe(true);
        }
      });

      // The purge keeps records still owed an outcome or an answer whatever their age: walking an index of
      // every record by expiry, each statement would read past all of those kept so far.
      it("finds the purge's rows through the index of settled records by expiry", async () => {
        const purge = seen.find((s) => s.sql.includes('DELETE FROM operations WHERE id IN'));
        expect(purge).toBeDefined();
        expect(await indexesUsed(app.db, purge!)).toContain('operations_expiry');
        const [index] = await app.db.query<{ sql: string }>(
          app.db.dialect === 'sqlite'
            ? "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'operations_expiry'"
            : "SELECT indexdef AS sql FROM pg_indexes WHERE indexname = 'operations_expiry'",
        );
        expect(index?.sql).toMatch(/WHERE/i);
        expect(index?.sql).toMatch(/completed/);
      });

      it('reads operations and audit_log through an index in every one of them', async () => {
        const statements = new Map<string, Statement>();
        for (const s of seen) {
          if (/^\s*INSERT/i.test(s.sql) || !BIG_TABLES.some((t) => s.sql.includes(t))) continue;
          statements.set(s.sql, s);
        }
        expect(statements.size).toBeGreaterThan(20);
        const scans: string[] = [];
        for (const statement of statements.values()) {
          for (const step of await fullScans(app.db, statement)) {
            scans.push(`${step}: ${statement.sql.replace(/\s+/g, ' ')}`);
          }
        }
        expect(scans).toEqual([]);
      });
    },
  );
}
