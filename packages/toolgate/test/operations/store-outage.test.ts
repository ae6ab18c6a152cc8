import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, credit, newKey, startTestApp } from '../../../../test/operations/harness.ts';
import {
  adminQuery,
  createScratchDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../../../test/support/pg.ts';
import { executions, testPrincipal } from '../../../../test/support/test-domain.ts';
import type { App } from '../../src/app/create-app.ts';
import { isStoreUnavailable } from '../../src/store/store-unavailable.ts';
import type { ShiftableClock } from '../../src/time/clock.ts';

const alice = testPrincipal('alice');

describe.skipIf(!(await postgresAvailable()))(
  'the gateway when its PostgreSQL database stops answering',
  () => {
    let db: ScratchDatabase;
    let app: App & { clock: ShiftableClock };
    beforeAll(async () => {
      db = await createScratchDatabase();
      app = await startTestApp({ dataDir: '.', databaseUrl: db.url });
    });
    afterAll(async () => {
      await adminQuery(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await app?.close();
      await db?.drop();
    });

    it('answers DEPENDENCY_UNAVAILABLE (retryable, same key) and executes nothing; the same key later executes once', async () => {
      const args = { account: 'acc-down', amount: 7, idempotency_key: newKey('down') };
      await adminQuery(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS false`);
      await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db.name}'`);

      const refused = await credit(app, alice, args);
      expect(refused).toMatchObject({
        status: 'failed',
        code: 'DEPENDENCY_UNAVAILABLE',
        category: 'dependency',
        retryable: true,
        resolution: 'Retry later with the same idempotency_key.',
      });
      const read = await call(app, alice, 'operations_get', {
        operation_id: 'op_00000000000000000000000000',
      });
      expect(read).toMatchObject({ status: 'failed', code: 'DEPENDENCY_UNAVAILABLE', retryable: true });

      await adminQuery(`ALTER DATABASE ${db.name} ALLOW_CONNECTIONS true`);
      const later = await credit(app, alice, args);
      expect(later).toMatchObject({ status: 'completed', replayed: false });
      expect(await executions(app.db, 'execute')).toHaveLength(1);
    });
  },
);

describe('what counts as the database being unavailable', () => {
  it('connection, resource and lock failures do; a broken statement does not', () => {
    const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const unavailable of [
      err('ECONNREFUSED'),
      err('08006'),
      err('57P01'),
      err('53300'),
      err('3D000'),
      err('SQLITE_BUSY'),
      err('SQLITE_IOERR_WRITE'),
      err('SQLITE_FULL'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      expect(isStoreUnavailable(unavailable), String(unavailable)).toBe(true);
    }
    for (const bug of [
      err('42601'),
      err('23505'),
      err('SQLITE_CONSTRAINT_UNIQUE'),
      new Error('boom'),
      null,
    ]) {
      expect(isStoreUnavailable(bug), String(bug)).toBe(false);
    }
  });
});
