import Database from 'better-sqlite3';
import pg from 'pg';
import type { ToolgateModule } from 'toolgate';
import { defineTool, idempotencyKeySchema, outcome } from 'toolgate';
import type { App } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { storeTargets } from '../support/store-targets.ts';
import { testPrincipal } from '../support/test-domain.ts';
import { type AppOnStore, appOnStore, newKey } from './harness.ts';

/**
 * What one call costs the database, counted at the drivers: every statement better-sqlite3 runs and
 * every message node-postgres sends (one round trip each, except on a read lane, where the statements
 * of one event-loop turn share one), named by what it does. The handlers touch no database, so each
 * list is the gateway's own work.
 */
const NAMES: readonly (readonly [RegExp, string])[] = [
  [/^(BEGIN|COMMIT|ROLLBACK)/, '$1'],
  // SQLite's group commit gives each write of a group its own savepoint: no commit, no round trip.
  [/^(SAVEPOINT|RELEASE)/, ''],
  [/^WITH ins AS \(INSERT INTO operations/, 'reserve or find'],
  [/^INSERT INTO operations/, 'reserve'],
  [/^SELECT \* FROM operations WHERE tenant = \? AND subject = \? AND idem_key/, 'find by key'],
  [/^WITH w0 AS \(UPDATE operations SET status = .* w1 AS \(INSERT INTO audit_log/, 'settle with audit'],
  [/^UPDATE operations SET status = /, 'settle'],
  [/^INSERT INTO audit_log/, 'audit'],
];

function nameOf(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').replace(/\$\d+/g, '?').trim();
  for (const [pattern, name] of NAMES) {
    const match = pattern.exec(text);
    if (match) return name.replace('$1', match[1] ?? '');
  }
  return text.slice(0, 60);
}

let counting = false;
const issued: string[] = [];
const note = (sql: string, onLane = false) => {
  const name = nameOf(sql);
  if (counting && name !== '') issued.push(onLane ? `${name} (lane)` : name);
};

function countAtTheDrivers(): void {
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      note(this.source);
      return original.apply(this, args);
    };
  }
  const database = Database.prototype as unknown as Record<string, unknown>;
  const exec = database.exec as (sql: string) => unknown;
  database.exec = function (this: unknown, sql: string) {
    note(sql);
    return exec.call(this, sql);
  };
  const client = pg.Client.prototype as unknown as Record<string, unknown>;
  const query = client.query as (...args: unknown[]) => unknown;
  client.query = function (this: { pipeline?: boolean }, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    // A pipelined read lane's statements are marked: they share their round trips.
    note(typeof first === 'string' ? first : first.text, this.pipeline === true);
    return query.apply(this, args);
  };
}

const noteTool = (name: string, kind: 'write' | 'read') =>
  defineTool({
    name,
    title: 'Count statements',
    description:
      'Answers at once without touching the database, so a call costs only what the gateway issues.',
    kind,
    ...(kind === 'write' ? { mutation: 'create' as const, supportsDryRun: true } : {}),
    version: '1.0.0',
    input:
      kind === 'write'
        ? z.strictObject({
            text: z.string().max(20).describe('Any text.'),
            idempotency_key: idempotencyKeySchema,
            dry_run: z.boolean().default(false).describe('True to check only.'),
          })
        : z.strictObject({ text: z.string().max(20).describe('Any text.') }),
    output: z.strictObject({ ok: z.boolean().describe('Always true.') }),
    errors: [],
    scopes: ['counted:write'],
    timeoutMs: 2_000,
    examples: [],
    async handler(input) {
      return 'dry_run' in input && input.dry_run
        ? outcome.validated({ ok: true })
        : outcome.completed({ ok: true });
    },
    ...(kind === 'write'
      ? { reconcile: async () => ({ settled: true, outcome: outcome.completed({ ok: true }) }) }
      : {}),
  } as Parameters<typeof defineTool>[0]);

const countedModule: ToolgateModule = {
  name: 'counted',
  create: () => ({ tools: [noteTool('counted_write', 'write'), noteTool('counted_read', 'read')] }),
};

const writer = testPrincipal('counter', { scopes: ['counted:write'] });

countAtTheDrivers();

/** Per store, what each kind of call issues, in order. */
const expected = {
  sqlite: {
    write: ['find by key', 'BEGIN', 'reserve', 'COMMIT', 'BEGIN', 'settle', 'audit', 'COMMIT'],
    replay: ['find by key', 'BEGIN', 'audit', 'COMMIT'],
    dryRun: ['BEGIN', 'audit', 'COMMIT'],
    group: ['BEGIN', ...Array(8).fill('audit'), 'COMMIT'],
  },
  postgres: {
    write: ['find by key (lane)', 'reserve or find', 'settle with audit'],
    replay: ['find by key (lane)', 'audit'],
    dryRun: ['audit'],
    group: ['audit', 'audit'],
  },
};

for (const target of storeTargets) {
  describe.skipIf(!target.available)(`statements per call on ${target.dialect}`, () => {
    let suite: AppOnStore | undefined;
    let app: App;
    beforeAll(async () => {
      suite = await appOnStore(target, { modules: [countedModule] });
      app = suite.app;
    });
    afterAll(() => suite?.dispose());

    /** The writer's audit entries of one operation, oldest first. */
    const auditOf = (operationId: string) =>
      app.operations.audit.list({ tenant: writer.tenant, operationId, limit: 20 });

    /** The statements one call issues (after a warm-up call of the same kind). */
    async function statementsOf(name: string, args: () => Record<string, unknown>) {
      (await app.gateway.call({ name, arguments: args() }, writer)).envelope;
      issued.length = 0;
      counting = true;
      try {
        const envelope = (await app.gateway.call({ name, arguments: args() }, writer)).envelope;
        return { envelope, statements: [...issued] };
      } finally {
        counting = false;
      }
    }

    it('a durable write: one reservation, then its settlement and audit entry committed together', async () => {
      const { envelope, statements } = await statementsOf('counted_write', () => ({
        text: 'w',
        idempotency_key: newKey('count-w'),
      }));
      expect(envelope).toMatchObject({ status: 'completed', replayed: false });
      expect(statements).toEqual(expected[target.dialect].write);
      const entries = await auditOf(envelope.operation_id!);
      expect(entries).toMatchObject([{ status: 'completed', replayed: false }]);
      expect(await app.operations.store.findById(envelope.operation_id!)).toMatchObject({
        status: 'completed',
      });
    });

    it('a replay: the stored record (found by the lookup, or by the reservation that loses) and the audit entry', async () => {
      const key = newKey('count-r');
      const { envelope, statements } = await statementsOf('counted_write', () => ({
        text: 'r',
        idempotency_key: key,
      }));
      expect(envelope).toMatchObject({ status: 'completed', replayed: true });
      expect(statements).toEqual(expected[target.dialect].replay);
      const entries = await auditOf(envelope.operation_id!);
      expect(entries.map((e) => e.replayed)).toEqual([false, true]);
    });

    it('concurrent replays: every one answers with its entry stored', async () => {
      const args = { text: 'c', idempotency_key: newKey('count-c') };
      const first = (await app.gateway.call({ name: 'counted_write', arguments: args }, writer)).envelope;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          app.gateway
            .call({ name: 'counted_write', arguments: args }, writer)
            .then((answer) => answer.envelope),
        ),
      );
      expect(answers.every((a) => a.replayed && a.operation_id === first.operation_id)).toBe(true);
      const entries = await auditOf(first.operation_id!);
      expect(entries.map((e) => e.replayed)).toEqual([false, ...answers.map(() => true)]);
    });

    it('entries recorded together share one commit (group commit)', async () => {
      const entry = (n: number) => ({
        at: new Date().toISOString(),
        correlationId: `group-${n}`,
        tenant: 'group-tenant',
        subject: 'group',
        actor: 'service',
        action: 'counted_write',
        status: 'completed',
        code: null,
        operationId: null,
        replayed: true,
      });
      issued.length = 0;
      counting = true;
      try {
        await Promise.all(Array.from({ length: 8 }, (_, n) => app.operations.audit.record(entry(n))));
      } finally {
        counting = false;
      }
      const stored = await app.operations.audit.list({ tenant: 'group-tenant', limit: 20 });
      // In the order recorded; each record() answered only once its own entry was committed.
      expect(stored.map((e) => e.correlation_id)).toEqual(Array.from({ length: 8 }, (_, n) => `group-${n}`));
      // PostgreSQL: the first goes at once, the seven recorded meanwhile together in the next insert.
      // SQLite: the eight inserts of one event-loop turn commit together (the store's group commit).
      expect(issued).toEqual(expected[target.dialect].group);
    });

    it('a dry run writes only its audit entry; a read writes nothing', async () => {
      const dry = await statementsOf('counted_write', () => ({
        text: 'd',
        dry_run: true,
        idempotency_key: newKey('count-d'),
      }));
      expect(dry.envelope).toMatchObject({ status: 'validated' });
      expect(dry.statements).toEqual(expected[target.dialect].dryRun);
      const read = await statementsOf('counted_read', () => ({ text: 'x' }));
      expect(read.envelope).toMatchObject({ status: 'completed' });
      expect(read.statements).toEqual([]);
    });
  });
}
