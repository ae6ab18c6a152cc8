import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceDomains } from '@toolgate/domains';
import { pino } from 'pino';
import { afterAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/app/create-app.ts';
import { defineModule, type ToolgateModule } from '../../src/app/module.ts';
import type { ToolRegistry } from '../../src/contract/tool-registry.ts';
import { ContractDatabase } from '../../src/contract-artifacts/contract-database.ts';
import { loadServedRegistry } from '../../src/contract-artifacts/served-contract.ts';
import { ticketsGet, ticketsOpen } from './fixtures/ticket-tools.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The registry of a real (non-serving) createApp over these modules, as `serve` builds it. */
async function servedByCreateApp(
  modules: readonly ToolgateModule[],
  retentionSeconds?: number,
): Promise<ToolRegistry> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-served-contract-'));
  dirs.push(dataDir);
  const app = await createApp({
    dataDir,
    logger: pino({ level: 'silent' }),
    backgroundJobs: false,
    modules,
    ...(retentionSeconds === undefined ? {} : { retentionSeconds }),
  });
  await app.close();
  return app.registry;
}

function published(registry: ToolRegistry) {
  return { options: registry.options, listing: registry.listing(), catalog: [...registry.catalog()] };
}

describe('the served contract', () => {
  test('is built from exactly the registry createApp builds for serve (tools, listing, catalog, retention)', async () => {
    for (const retention of [undefined, 3600]) {
      const options = retention === undefined ? {} : { retentionSeconds: retention };
      expect(published(await loadServedRegistry(referenceDomains, options))).toEqual(
        published(await servedByCreateApp(referenceDomains, retention)),
      );
    }
  });

  test('modules get a migrated database only when they use it in create(), and a working silent logger', async () => {
    const seen: string[] = [];
    const reading = defineModule({
      name: 'reading',
      migrations: [{ id: 'reading_001', sql: 'CREATE TABLE reading_flags (name TEXT PRIMARY KEY)' }],
      async create({ db, logger }) {
        logger.info('creating');
        logger.child({ part: 'flags' }).debug('reading flags');
        seen.push(logger.level);
        // Serve's own tables are there too, as under createApp.
        await db.query('SELECT COUNT(*) AS n FROM operations');
        const rows = await db.query<{ name: string }>('SELECT name FROM reading_flags');
        return { tools: rows.length === 0 ? [ticketsOpen] : [] };
      },
    });
    const plain = defineModule({ name: 'plain', create: () => ({ tools: [ticketsGet] }) });
    const registry = await loadServedRegistry([reading, plain]);
    expect(registry.all().map((t) => t.definition.name)).toEqual([
      'operations_get',
      'tickets_get',
      'tickets_open',
    ]);
    expect(seen).toEqual(['silent']);
    expect(published(registry)).toEqual(published(await servedByCreateApp([reading, plain])));
  });

  test('refuses what createApp refuses: a duplicate tool fails the contract build as it fails serve', async () => {
    const twice = [
      defineModule({ name: 'one', create: () => ({ tools: [ticketsGet] }) }),
      defineModule({ name: 'two', create: () => ({ tools: [ticketsGet] }) }),
    ];
    const served = await servedByCreateApp(twice).then(
      () => 'built',
      (error: Error) => error.message,
    );
    expect(served).not.toBe('built');
    await expect(loadServedRegistry(twice)).rejects.toThrow(served);
  });

  test('the contract database opens only on first use', async () => {
    const db = new ContractDatabase([{ id: 'x_001', sql: 'CREATE TABLE x (id INTEGER)' }]);
    expect(db.opened).toBe(false);
    await db.close();
    const used = new ContractDatabase([{ id: 'x_001', sql: 'CREATE TABLE x (id INTEGER)' }]);
    expect(await used.execute('INSERT INTO x (id) VALUES (?)', [1])).toBe(1);
    expect(used.opened).toBe(true);
    expect(await used.transaction((tx) => tx.query('SELECT id FROM x'))).toEqual([{ id: 1 }]);
    await used.close();
  });
});
