import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server tests use; override with TOOLGATE_TEST_DATABASE_URL (a URL to any existing database). */
export const PG_ADMIN_URL =
  process.env.TOOLGATE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Whether PostgreSQL answers. Suites that need it skip when it does not, with a loud warning,
 * except under CI, where a missing database must fail the run rather than silently pass it.
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (error) {
    if (process.env.CI) throw new Error(`PostgreSQL is required under CI but unreachable: ${String(error)}`);
    console.warn(
      `\n!!! PostgreSQL at ${PG_ADMIN_URL} is unreachable (${String(error)}); PostgreSQL suites are SKIPPED !!!\n`,
    );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface ScratchDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh database `toolgate_t_<random>` for one test file; `drop` removes it again. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `toolgate_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Runs one statement as the server's administrator (outside any test database). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
