// The billing service: its own process, its own SQLite file. Run with `node service/server.ts`
// (Node strips the types; the sources use erasable syntax only).
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { openBillingDatabase, resetBillingDatabase } from './billing-database.ts';
import { billingRoutes } from './billing-routes.ts';
import { BillingService } from './billing-service.ts';

const dbFile = resolve(process.env.BILLING_DB ?? 'billing.sqlite');
const port = Number(process.env.PORT ?? 4100);
const host = process.env.HOST ?? '127.0.0.1';
const pauseAfterCommitMs = Number(process.env.BILLING_PAUSE_AFTER_COMMIT_MS ?? 0);
const enableReset = process.env.BILLING_ENABLE_RESET === '1';

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`billing: PORT ${process.env.PORT} is not a port number\n`);
  process.exit(2);
}

const db = openBillingDatabase(dbFile);
const app = billingRoutes(new BillingService(db), {
  pauseAfterCommitMs,
  ...(enableReset ? { resetToSeed: () => resetBillingDatabase(db) } : {}),
});
const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
  // The first stdout line is the contract with whoever started us (tests parse it).
  process.stdout.write(`listening on http://${host}:${info.port}\n`);
  process.stdout.write(`billing database: ${dbFile}\n`);
});

const stop = () => {
  server.close(() => {
    db.close();
    process.exit(0);
  });
  // Idle keep-alive connections would hold close() open; a service stopping owes them nothing.
  if ('closeAllConnections' in server) server.closeAllConnections();
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
