import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';
import { stackRuleLayers } from './rules/rule-schema.ts';
import { normalizeWords } from './rules/user-answer.ts';
import {
  type DomainDefaults,
  domainDefaultsSchema,
  type LoadedScenario,
  type ReferenceStep,
  SPLITS,
  type Split,
  scenarioSchema,
  type UserFact,
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
/** Per-domain defaults shared by every scenario under a root, next to dev/ and holdout/. */
export const DOMAIN_DEFAULTS_FILE = 'domains.yaml';

/** Parses and validates one scenario file's text; throws ScenarioLoadError naming each problem. */
export function parseScenario(text: string, file: string, split: Split): LoadedScenario {
  const parsed = scenarioSchema.safeParse(parseText(text, file));
  if (!parsed.success) throw new ScenarioLoadError(file, describeIssues(parsed.error));
  const problems = [
    ...consistencyProblems(parsed.data.reference.steps, parsed.data.user_replies.length),
    ...userFactProblems(parsed.data.user_facts, [parsed.data.request, ...parsed.data.user_replies]),
  ];
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
  let defaults: DomainDefaults = {};
  try {
    defaults = loadDomainDefaults(root);
  } catch (error) {
    if (!(error instanceof ScenarioLoadError)) throw error;
    errors.push(error);
  }
  for (const split of splits) {
    const dir = join(root, split);
    for (const file of listScenarioFiles(dir)) {
      const shown = relative(process.cwd(), file) || file;
      try {
        const scenario = parseScenario(readFileSync(file, 'utf8'), shown, split);
        const earlier = seen.get(scenario.id);
        if (earlier) throw new ScenarioLoadError(shown, [`id ${scenario.id} is already used by ${earlier}`]);
        seen.set(scenario.id, shown);
        scenarios.push(withDomainDefaults(scenario, defaults));
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

/** Reads `domains.yaml` under the root; none is the same as an empty one. */
export function loadDomainDefaults(root: string): DomainDefaults {
  const path = join(root, DOMAIN_DEFAULTS_FILE);
  if (!existsSync(path)) return {};
  const shown = relative(process.cwd(), path) || path;
  const parsed = domainDefaultsSchema.safeParse(parseText(readFileSync(path, 'utf8'), shown) ?? {});
  if (!parsed.success) throw new ScenarioLoadError(shown, describeIssues(parsed.error));
  return parsed.data;
}

/** The scenario with its domain's preparatory tools and rule settings beneath its own. */
function withDomainDefaults(scenario: LoadedScenario, defaults: DomainDefaults): LoadedScenario {
  const domain = defaults[scenario.domain];
  if (!domain) return scenario;
  return {
    ...scenario,
    prepare: [...domain.prepare, ...scenario.prepare],
    expect: { ...scenario.expect, rules: stackRuleLayers(domain.rules, scenario.expect.rules) },
  };
}

function parseText(text: string, file: string): unknown {
  try {
    return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const detail =
      error instanceof YAMLParseError || error instanceof SyntaxError ? error.message : String(error);
    throw new ScenarioLoadError(file, [`not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${detail}`]);
  }
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

/** A user fact quotes the user: its words appear in the request or a reply. */
function userFactProblems(facts: readonly UserFact[], said: readonly string[]): string[] {
  const words = said.map(normalizeWords);
  return facts.flatMap((fact, index) =>
    words.some((text) => text.includes(normalizeWords(fact.says)))
      ? []
      : [`user_facts.${index}.says: ${JSON.stringify(fact.says)} is not in the request or any user reply`],
  );
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
