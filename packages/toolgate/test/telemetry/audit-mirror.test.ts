import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, test } from 'vitest';
import { AuditLog } from '../../src/operations/audit-log.ts';
import { FRAMEWORK_MIGRATIONS } from '../../src/operations/framework-parts.ts';
import { runMigrations } from '../../src/store/migrations.ts';
import { SqliteDatabase } from '../../src/store/sqlite/sqlite-database.ts';
import type { AuditEntry } from '../../src/telemetry/audit.ts';
import { REDACTED_PATHS } from '../../src/telemetry/logger.ts';

const entry = (detail: Record<string, unknown>): AuditEntry => ({
  at: '2026-11-30T10:00:00.000Z',
  correlationId: 'corr-1',
  tenant: 'tenant_a',
  subject: 'user_a',
  actor: 'customer',
  action: 'orders_change_unshipped_address',
  status: 'completed',
  code: null,
  operationId: 'op_01JD6Z5X4K3M2N1P0Q9R8S7T6V',
  replayed: false,
  tool: 'orders_change_unshipped_address',
  contractVersion: '2.0.0',
  traceId: null,
  detail,
});

/**
 * The audit channel mirrors every stored entry to the log, redacted as the rest of the log is: its
 * paths are spelled without wildcards (cheaper), and must still catch what the wildcards would.
 */
describe('the audit channel of the log', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-audit-mirror-'));
  const db = new SqliteDatabase(join(dir, 'audit.db'));
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('mirrors each stored entry, with credentials in its detail redacted as the main log would', async () => {
    await runMigrations(db, FRAMEWORK_MIGRATIONS);
    const audit = new AuditLog(db, logger);
    await audit.record(entry({ mode: 'execute', token: 'secret-1', authorization: 'Bearer secret-2' }));
    const line = lines.at(-1)!;
    expect(line).toMatchObject({ channel: 'audit', msg: 'audit', action: 'orders_change_unshipped_address' });
    expect(line.detail).toEqual({ mode: 'execute', token: '[redacted]', authorization: '[redacted]' });
    expect(JSON.stringify(lines)).not.toContain('secret-');
    const stored = await db.query('SELECT action, detail FROM audit_log');
    expect(stored).toHaveLength(1);
  });
});
