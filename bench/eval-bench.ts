import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceDomains } from '../packages/domains/src/reference-domains.ts';
import { referenceAgent } from '../packages/eval/src/agents/reference-agent.ts';
import { runEvaluation } from '../packages/eval/src/evaluation.ts';
import { InProcessWorld } from '../packages/eval/src/in-process-world.ts';
import { loadScenarios } from '../packages/eval/src/scenario-loader.ts';
import type { BenchMeasure } from './bench-section.ts';

/** A reference run of every scenario (dev and holdout) against one gateway on SQLite. */
export async function evalBench(): Promise<BenchMeasure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-bench-eval-'));
  const startedWorld = performance.now();
  const world = await InProcessWorld.start({ modules: referenceDomains, dataDir });
  const startMs = performance.now() - startedWorld;
  try {
    const scenarios = loadScenarios(join(import.meta.dirname, '..', 'eval', 'scenarios'));
    const report = await runEvaluation({ world, scenarios, agents: [referenceAgent], trials: 1 });
    return [
      { name: 'gateway start (SQLite, three domains)', value: startMs, unit: 'ms' },
      { name: 'scenarios run (reference agent, dev + holdout)', value: scenarios.length, unit: 'scenarios' },
      { name: 'scenarios passed', value: report.overall.passed, unit: 'scenarios' },
      { name: 'whole reference run', value: report.durationMs, unit: 'ms' },
      {
        name: 'per scenario (reset, setup, calls, judging)',
        value: report.durationMs / scenarios.length,
        unit: 'ms',
      },
      { name: 'tool calls per scenario', value: report.overall.callsPerTask, unit: 'x' },
    ];
  } finally {
    await world.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
