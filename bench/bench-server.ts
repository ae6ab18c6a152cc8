import { pino } from 'pino';
import { createApp } from '../src/app/create-app.ts';
import { startHttpTransport } from '../src/transport/http-server.ts';
import { benchDomain } from './bench-domain.ts';

/**
 * The gateway under load for the operations benchmark, in its own process so the load generator
 * does not share its event loop: toolgate over HTTP as served (token verification, the full
 * pipeline, info logs to a file), with one durable write tool, on SQLite in the data dir or on the
 * PostgreSQL database given. Announces {port, resource} over IPC.
 */
const [dataDir, databaseUrl] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: bench-server.ts <dataDir> [databaseUrl]');

const app = await createApp({
  dataDir,
  databaseUrl: databaseUrl || undefined,
  logger: pino({ level: 'info' }, pino.destination({ dest: `${dataDir}/gateway.log`, sync: false })),
  seed: false,
  modules: [benchDomain],
});
const http = await startHttpTransport(app, { port: 0, keys: { kind: 'dev', dataDir } });
process.send?.({ port: http.port, resource: http.resource });
process.on('disconnect', () => process.exit(0));
