import { loadScenarios } from './scenario-loader.ts';
import type { LoadedScenario, Split } from './scenario-schema.ts';

/** Loads the split(s) asked for and keeps scenarios whose id, family or domain contains the filter. */
export function selectScenarios(root: string, split: Split | 'all', filter?: string): LoadedScenario[] {
  const splits: Split[] = split === 'all' ? ['dev', 'holdout'] : [split];
  const scenarios = loadScenarios(root, splits);
  if (!filter) return scenarios;
  const needle = filter.toLowerCase();
  return scenarios.filter((s) =>
    [s.id, s.family, s.domain].some((field) => field.toLowerCase().includes(needle)),
  );
}
