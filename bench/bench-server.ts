import { DEMO_POLICY_DIR, referenceDomains } from '@toolgate/domains';
import { simulationOf } from '@toolgate/simulation';
import { pino } from 'pino';
import type { ToolgateModule } from 'toolgate';
import { createApp, startHttpTransport } from 'toolgate/server';
import { createLogger } from '../packages/toolgate/dist/telemetry/logger.js';
import { benchDomain } from './bench-domain.ts';
import { generatedToolsDomain } from './generated-tools-domain.ts';

/**
 * The gateway under load for the operations and fair-anchors benchmarks, in its own process so the
 * load generator does not share its event loop: toolgate over HTTP as served (token verification, the
 * full pipeline, info logs to a file), on SQLite in the data dir or on the PostgreSQL database given.
 * The module set: `bench` (one durable write tool, the default), `reference` (the reference domains,
 * seeded, plus the bench write tool), `demo` (the reference domains with the demo's Cedar policies) or `generated` (a thousand generated tools); optionally the number
 * of PostgreSQL read lanes (0: the pool only, as a baseline). Announces
 * {port, resource} over IPC.
 */
const MODULE_SETS: Record<string, { modules: readonly ToolgateModule[]; seed: boolean; policyDir?: string }> =
  {
    bench: { modules: [benchDomain], seed: false },
    reference: { modules: [...referenceDomains, benchDomain], seed: true },
    // The demo as `npm start` serves it, with its Cedar policies: a domain write pays its policy decision.
    demo: { modules: referenceDomains, seed: true, policyDir: DEMO_POLICY_DIR },
    generated: { modules: [generatedToolsDomain], seed: false },
  };

const [dataDir, databaseUrl, moduleSet = 'bench', readLanes] = process.argv.slice(2);
const served = MODULE_SETS[moduleSet];
if (!dataDir || !served)
  throw new Error(
    'usage: bench-server.ts <dataDir> [databaseUrl] [bench|reference|demo|generated] [readLanes]',
  );

const app = await createApp({
  dataDir,
  databaseUrl: databaseUrl || undefined,
  ...(readLanes === undefined ? {} : { readLanes: Number(readLanes) }),
  // The logger `serve` makes (redaction, ISO times), writing to a file instead of stderr.
  logger: createLogger({
    level: 'info',
    destination: pino.destination({ dest: `${dataDir}/gateway.log`, sync: false }),
  }),
  modules: served.modules,
  ...(served.policyDir ? { policyDir: served.policyDir } : {}),
});
if (served.seed) await simulationOf(app).seed();
const http = await startHttpTransport(app, { port: 0, keys: { kind: 'dev', dataDir } });
process.send?.({ port: http.port, resource: http.resource });
process.on('disconnect', () => process.exit(0));
