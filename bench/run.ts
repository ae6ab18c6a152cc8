import type { BenchMeasure, BenchSection, BenchTable } from './bench-section.ts';
import { cliStartupBench } from './cli-startup-bench.ts';
import { evalBench } from './eval-bench.ts';
import { fairAnchorsBench } from './fair-anchors.ts';
import { fleetLimitsBench } from './fleet-limits-bench.ts';
import { gatewayVsSdkBench } from './gateway-vs-sdk.ts';
import { growthBench } from './growth-bench.ts';
import { listingSizeBench } from './listing-size.ts';
import { operationsBench } from './operations-bench.ts';
import { policyBench } from './policy-bench.ts';

/**
 * `npm run bench`: every section in one run, printed as a table. `npm run bench -- <words>` runs
 * only the sections whose title contains them.
 */
const sections: BenchSection[] = [
  { title: 'gateway vs bare SDK: no-op read tool over HTTP', run: () => gatewayVsSdkBench() },
  { title: 'operations: reservations, replays, durable writes', run: () => operationsBench() },
  {
    title: 'fair anchors: raw node:http and low-level SDK vs gateway read, write, replay, tools/list',
    run: () => fairAnchorsBench(),
  },
  {
    title: 'policy: the demo policies on a read and a durable write, in process',
    run: () => policyBench(),
  },
  { title: 'evaluation: reference run of every scenario', run: () => evalBench() },
  { title: 'CLI start-up: commands that do not serve', run: () => cliStartupBench() },
  { title: 'listing size: the demo tools/list entries as JSON', run: () => listingSizeBench() },
  {
    title: 'fleet limits: a read with the rate leased from PostgreSQL vs limited per process',
    run: () => fleetLimitsBench(),
  },
  {
    title: 'growth: writes, reads, replays, reconciler and operator queries at 0, 10^5 and 10^6 operations',
    run: () => growthBench(sizesFromEnvironment()),
  },
];

/**
 * `TOOLGATE_BENCH_GROWTH_SIZES=0,10000` measures the growth section at other sizes (a quick run),
 * `TOOLGATE_BENCH_GROWTH_EXPIRED=100000` purges that many expired rows instead of a million, and
 * `TOOLGATE_BENCH_GROWTH_STORES=postgres` grows only that store.
 */
function sizesFromEnvironment() {
  const whole = (name: string) => {
    const raw = process.env[name];
    if (!raw) return undefined;
    const values = raw.split(',').map(Number);
    if (values.some((n) => !Number.isInteger(n) || n < 0)) {
      throw new Error(`${name}: whole numbers, comma-separated`);
    }
    return values;
  };
  const sizes = whole('TOOLGATE_BENCH_GROWTH_SIZES');
  const expired = whole('TOOLGATE_BENCH_GROWTH_EXPIRED')?.[0];
  const stores = process.env.TOOLGATE_BENCH_GROWTH_STORES?.split(',');
  if (stores?.some((store) => store !== 'sqlite' && store !== 'postgres')) {
    throw new Error('TOOLGATE_BENCH_GROWTH_STORES: sqlite, postgres or both, comma-separated');
  }
  return {
    ...(sizes ? { sizes } : {}),
    ...(expired !== undefined ? { expired } : {}),
    ...(stores ? { stores: stores as ('sqlite' | 'postgres')[] } : {}),
  };
}

/** One figure on a line, its name padded to `width`, so a section's values line up. */
function format(measure: BenchMeasure, width: number): string {
  const digits = measure.unit === 'x' || measure.unit === 'ms' ? 2 : 0;
  return `  ${measure.name.padEnd(width)} ${measure.value.toFixed(digits).padStart(12)} ${measure.unit}`;
}

function formatTable(table: BenchTable): string[] {
  const width = 13;
  const nameWidth = Math.max(...table.rows.map((row) => row.name.length)) + 2;
  const header = `  ${'case'.padEnd(nameWidth)}${table.columns.map((c) => c.title.padStart(width)).join('')}`;
  const rows = table.rows.map(
    (row) =>
      `  ${row.name.padEnd(nameWidth)}${row.values
        .map((value, i) =>
          (Number.isNaN(value) ? '-' : value.toFixed(table.columns[i]?.digits ?? 2)).padStart(width),
        )
        .join('')}`,
  );
  return [header, ...rows];
}

const filter = process.argv.slice(2).join(' ').toLowerCase();
let failed = false;
for (const section of sections) {
  if (filter && !section.title.toLowerCase().includes(filter)) continue;
  console.log(`\n${section.title}`);
  try {
    const report = await section.run();
    if ('table' in report) for (const line of formatTable(report.table)) console.log(line);
    const measures = 'table' in report ? report.measures : report;
    // Names past 90 characters (a section's closing note on its load) overflow rather than widen all.
    const width = Math.max(60, ...measures.map((m) => m.name.length).filter((n) => n <= 90));
    for (const measure of measures) console.log(format(measure, width));
  } catch (error) {
    failed = true;
    console.log(`  failed: ${(error as Error).message}`);
  }
}
process.exit(failed ? 1 : 0);
