import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchMeasure } from './bench-section.ts';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 15;

/** Median wall time of `node <args>` over RUNS runs, after one warm-up run (fills the compile cache). */
function medianMs(args: readonly string[]): number {
  execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = process.hrtime.bigint();
    execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * Start-up of the commands that do not serve, as the installed package runs them (bin/ over the
 * compiled dist/), against the sources run through tsx: the way the command started before it was
 * compiled, measured in the same run as the baseline.
 */
export async function cliStartupBench(): Promise<BenchMeasure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-cli-'));
  try {
    const token = ['token', '--sub', 'u', '--tenant', 't', '--actor', 'customer', '--data-dir', dataDir];
    const compiled = ['bin/toolgate.mjs'];
    const fromSources = [
      '--conditions=toolgate-source',
      '--import',
      'tsx',
      'packages/toolgate/src/cli/main.ts',
    ];
    const cases = [
      { name: '--version', args: ['--version'] },
      { name: 'token', args: token },
      { name: 'lint (demo tools)', args: ['lint'] },
      { name: 'lint (contract file)', args: ['lint', 'contracts/toolgate.contract.json'] },
    ];
    const measures: BenchMeasure[] = [];
    for (const { name, args } of cases) {
      const before = medianMs([...fromSources, ...args]);
      const after = medianMs([...compiled, ...args]);
      measures.push(
        { name: `${name}: sources through tsx (before), median`, value: before, unit: 'ms' },
        { name: `${name}: compiled package (after), median`, value: after, unit: 'ms' },
        { name: `${name}: speed-up`, value: before / after, unit: 'x' },
      );
    }
    return measures;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
