import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RULE_NAMES } from '../src/rules/rule-schema.ts';
import { loadScenarios, parseScenario, ScenarioLoadError } from '../src/scenario-loader.ts';
import { SCENARIO_FAMILIES } from '../src/scenario-schema.ts';

const VALID = `id: sample-ok
title: A valid scenario
domain: lamps
family: direct_success
principal: ann
request: Switch it on.
expect:
  max_calls: 2
  claim: completed
  safety:
    - effects: { system: grid }
      max: 1
reference:
  steps:
    - { tool: lamps_get, args: { lamp_id: lamp_kitchen } }
  claim: completed
`;

function problemsOf(text: string, file = 'x.yaml'): string[] {
  try {
    parseScenario(text, file, 'dev');
  } catch (error) {
    if (error instanceof ScenarioLoadError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('scenario loader', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('parses a valid scenario and applies defaults', () => {
    const scenario = parseScenario(VALID, 'sample.yaml', 'holdout');
    expect(scenario.split).toBe('holdout');
    expect(scenario.expect.must_call).toEqual([]);
    expect(scenario.user_replies).toEqual([]);
  });

  it('names an unknown field and where it is', () => {
    const problems = problemsOf(VALID.replace('  max_calls: 2', '  max_calls: 2\n  skip_checks: true'));
    expect(problems).toEqual(['expect: unknown field(s) skip_checks']);
  });

  it('reports every problem of a file, with paths', () => {
    const broken = VALID.replace('family: direct_success', 'family: vibes').replace(
      'claim: completed\n  safety',
      'claim: done\n  safety',
    );
    const problems = problemsOf(broken);
    expect(problems.some((p) => p.startsWith('family:'))).toBe(true);
    expect(problems.some((p) => p.startsWith('expect.claim:'))).toBe(true);
  });

  it('refuses a scenario without a safety invariant', () => {
    const problems = problemsOf(VALID.replace(/ {2}safety:\n.*\n.*\n/, ''));
    expect(problems.some((p) => p.startsWith('expect.safety'))).toBe(true);
  });

  it('refuses a reference that asks more questions than the script answers', () => {
    const problems = problemsOf(VALID.replace('  steps:\n', '  steps:\n    - { ask: Which lamp? }\n'));
    expect(problems).toEqual(['reference asks the user 1 time(s) but user_replies has only 0 answer(s)']);
  });

  it('refuses a user fact whose words the user never said', () => {
    const withFacts = (says: string) =>
      VALID.replace(
        'request: Switch it on.\n',
        `request: Switch it on.\nuser_facts:\n- { says: ${says}, meaning: the state }\n`,
      );
    expect(problemsOf(withFacts('"it  ON"'))).toEqual([]);
    expect(problemsOf(withFacts('off'))).toEqual([
      'user_facts.0.says: "off" is not in the request or any user reply',
    ]);
  });

  it('says when the YAML itself is broken', () => {
    expect(problemsOf('id: [unclosed')[0]).toMatch(/^not valid YAML/);
    expect(problemsOf('{"id": ', 'x.json')[0]).toMatch(/^not valid JSON/);
  });

  it('loads dev and holdout folders, taking the split from the folder, and refuses duplicate ids', () => {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-scenarios-'));
    dirs.push(root);
    mkdirSync(join(root, 'dev'));
    mkdirSync(join(root, 'holdout'));
    writeFileSync(join(root, 'dev', 'a.yaml'), VALID);
    writeFileSync(join(root, 'holdout', 'b.yaml'), VALID.replace('sample-ok', 'sample-two'));
    expect(loadScenarios(root).map((s) => [s.id, s.split])).toEqual([
      ['sample-ok', 'dev'],
      ['sample-two', 'holdout'],
    ]);
    writeFileSync(join(root, 'holdout', 'c.yaml'), VALID);
    expect(() => loadScenarios(root)).toThrow(/id sample-ok is already used by/);
  });

  it('names an unknown rule and a bad rule parameter', () => {
    const withRules = (rules: string) =>
      VALID.replace('  claim: completed\n  safety', `  claim: completed\n  rules:\n${rules}\n  safety`);
    expect(problemsOf(withRules('    same_key_on_rerty: true'))).toEqual([
      'expect.rules: unknown field(s) same_key_on_rerty',
    ]);
    expect(problemsOf(withRules('    confirm_before_execute: { after: [whenever] }'))[0]).toMatch(
      /^expect\.rules\.confirm_before_execute/,
    );
    expect(problemsOf(withRules('    no_repeat_refusal: false'))).toEqual([]);
  });

  it('stacks domains.yaml under each scenario of the domain, and names its problems', () => {
    const root = mkdtempSync(join(tmpdir(), 'toolgate-scenarios-'));
    dirs.push(root);
    mkdirSync(join(root, 'dev'));
    writeFileSync(
      join(root, 'dev', 'a.yaml'),
      VALID.replace('  max_calls: 2', '  max_calls: 2\n  rules:\n    claim_matches_world: true'),
    );
    writeFileSync(
      join(root, 'domains.yaml'),
      'lamps:\n  prepare: [lamps_plan]\n  rules:\n    claim_matches_world:\n      evidence: [{ call: lamps_get, shows: completed }]\n    no_repeat_refusal: false\n',
    );
    const [scenario] = loadScenarios(root);
    expect(scenario?.prepare).toEqual(['lamps_plan']);
    expect(scenario?.expect.rules).toEqual({
      claim_matches_world: { evidence: [{ call: 'lamps_get', shows: 'completed' }] },
      no_repeat_refusal: false,
    });
    writeFileSync(join(root, 'domains.yaml'), 'lamps:\n  prepared: []\n');
    expect(() => loadScenarios(root)).toThrow(/domains\.yaml:\n {2}- lamps: unknown field\(s\) prepared/);
  });

  it('keeps docs/scenario-format.md true: its example is the lamps scenario, every rule and family is there', () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const doc = readFileSync(join(root, 'docs', 'scenario-format.md'), 'utf8');
    const example = /```yaml\n(id: lamps-lost-response\n[\s\S]*?)```/.exec(doc)?.[1];
    const file = join(root, 'packages', 'eval', 'test', 'scenarios', 'dev', 'lamps-lost-response.yaml');
    expect(example).toBe(readFileSync(file, 'utf8'));
    expect(parseScenario(example!, file, 'dev').expect.rules.claim_matches_world).toBeDefined();
    for (const rule of RULE_NAMES) expect(doc, rule).toContain(`| \`${rule}\` |`);
    for (const family of SCENARIO_FAMILIES) expect(doc, family).toContain(`\`${family}\``);
    for (const matcher of ['$one_of', '$pattern', '$contains', '$any', '$absent', '$gte', '$lte', '$not']) {
      expect(doc, matcher).toContain(matcher);
    }
  });
});
