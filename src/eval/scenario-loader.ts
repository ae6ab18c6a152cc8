import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import {
  type LoadedScenario,
  type ReferenceStep,
  SPLITS,
  type Split,
  scenarioSchema,
} from './scenario-schema.ts';

/** A scenario file that could not be used, with every problem found in it. */
export class ScenarioLoadError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ScenarioLoadError';
  }
}

const SCENARIO_FILE = /\.(ya?ml|json)$/;

/** Parses and validates one scenario file's text; throws ScenarioLoadError naming each problem. */
export function parseScenario(text: string, file: string, split: Split): LoadedScenario {
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const detail =
      error instanceof YAMLParseError || error instanceof SyntaxError ? error.message : String(error);
    throw new ScenarioLoadError(file, [`not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${detail}`]);
  }
  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success) throw new ScenarioLoadError(file, describeIssues(parsed.error));
  const problems = consistencyProblems(parsed.data.reference.steps, parsed.data.user_replies.length);
  if (problems.length > 0) throw new ScenarioLoadError(file, problems);
  return { ...parsed.data, split, file };
}

/**
 * Loads every scenario under `root/dev` and `root/holdout` (the folder decides the split).
 * Collects the problems of all files before throwing, and refuses duplicate ids across splits.
 */
export function loadScenarios(root: string, splits: readonly Split[] = SPLITS): LoadedScenario[] {
  const scenarios: LoadedScenario[] = [];
  const errors: ScenarioLoadError[] = [];
  const seen = new Map<string, string>();
  for (const split of splits) {
    const dir = join(root, split);
    for (const file of listScenarioFiles(dir)) {
      const shown = relative(process.cwd(), file) || file;
      try {
        const scenario = parseScenario(readFileSync(file, 'utf8'), shown, split);
        const earlier = seen.get(scenario.id);
        if (earlier) throw new ScenarioLoadError(shown, [`id ${scenario.id} is already used by ${earlier}`]);
        seen.set(scenario.id, shown);
        scenarios.push(scenario);
      } catch (error) {
        if (!(error instanceof ScenarioLoadError)) throw error;
        errors.push(error);
      }
    }
  }
  if (errors.length > 0) {
    throw new ScenarioLoadError(
      root,
      errors.map((e) => e.message),
    );
  }
  return scenarios.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function listScenarioFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .map((entry) => join(dir, entry))
    .filter((path) => SCENARIO_FILE.test(path) && statSync(path).isFile())
    .sort();
}

function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
    if (issue.code === 'unrecognized_keys') return `${where}: unknown field(s) ${issue.keys.join(', ')}`;
    if (issue.code === 'invalid_union') return `${where}: does not match any allowed shape`;
    return `${where}: ${issue.message}`;
  });
}

function consistencyProblems(steps: readonly ReferenceStep[], replies: number): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  let asks = 0;
  steps.forEach((step, index) => {
    if (step.id) {
      if (ids.has(step.id)) problems.push(`reference.steps.${index}.id: ${step.id} is used twice`);
      ids.add(step.id);
    }
    if ('ask' in step) asks += 1;
  });
  if (asks > replies) {
    problems.push(`reference asks the user ${asks} time(s) but user_replies has only ${replies} answer(s)`);
  }
  return problems;
}
