import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { ModuleContext, ToolgateModule } from 'toolgate';
import { createApp } from 'toolgate/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/** A module that records what its context gave it and runs one background job. */
function recordingModule(seen: { context?: ModuleContext; runs: number; closed: boolean }): ToolgateModule {
  return {
    name: 'recording',
    migrations: [{ id: '9200_recording', sql: 'CREATE TABLE recording_ticks (at BIGINT NOT NULL)' }],
    create(context) {
      seen.context = context;
      context.background.every('recording-tick', 10, async () => {
        seen.runs += 1;
        await context.db.execute('INSERT INTO recording_ticks (at) VALUES (?)', [context.clock.now()]);
      });
      return {
        tools: [],
        async close() {
          seen.closed = true;
        },
      };
    },
  };
}

describe('what the gateway gives a module', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'toolgate-module-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('its migrations, a database, a clock and background work that runs with the gateway and stops with it', async () => {
    const seen = { runs: 0, closed: false } as { context?: ModuleContext; runs: number; closed: boolean };
    const app = await createApp({
      dataDir,
      logger: pino({ level: 'silent' }),
      modules: [recordingModule(seen)],
    });
    await expect.poll(() => seen.runs, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    expect(seen.context?.db).toBe(app.db);
    await app.close();
    expect(seen.closed).toBe(true);
    const stoppedAt = seen.runs;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.runs).toBe(stoppedAt);
  });

  test('background work does not run in a process started without background jobs', async () => {
    const seen = { runs: 0, closed: false } as { context?: ModuleContext; runs: number; closed: boolean };
    const app = await createApp({
      dataDir: mkdtempSync(join(tmpdir(), 'toolgate-module-')),
      logger: pino({ level: 'silent' }),
      backgroundJobs: false,
      modules: [recordingModule(seen)],
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seen.runs).toBe(0);
    expect(await app.db.query('SELECT at FROM recording_ticks')).toEqual([]);
    await app.close();
  });
});
