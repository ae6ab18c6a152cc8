import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqlDialect } from 'toolgate';
import type { DatabaseConfig } from '../../packages/toolgate/src/store/open-database.ts';
import { createScratchDatabase, postgresAvailable } from './pg.ts';

/** A place a test can open stores at: a temp data dir, or a scratch PostgreSQL database. */
export interface StoreLocation {
  readonly config: DatabaseConfig;
  dispose(): Promise<void>;
}

export interface StoreTarget {
  readonly dialect: SqlDialect;
  /** False when PostgreSQL is unreachable outside CI (the suite is skipped with a warning). */
  readonly available: boolean;
  create(): Promise<StoreLocation>;
}

const pgUp = await postgresAvailable();

/** Every suite that touches the store runs once per entry: the same cases on both dialects. */
export const storeTargets: readonly StoreTarget[] = [
  {
    dialect: 'sqlite',
    available: true,
    async create() {
      const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-test-'));
      return {
        config: { dataDir },
        async dispose() {
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    dialect: 'postgres',
    available: pgUp,
    async create() {
      const scratch = await createScratchDatabase();
      const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-test-'));
      return {
        config: { dataDir, databaseUrl: scratch.url },
        async dispose() {
          await scratch.drop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];
