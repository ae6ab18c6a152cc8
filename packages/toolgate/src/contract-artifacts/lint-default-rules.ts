import { hit, type LintRule, type RuleHit } from './lint-rule.ts';
import { walkSchema } from './schema-walk.ts';

/**
 * Decisions about authority, scope or target that seed 003 says must be made explicitly: a default
 * would choose production, a region or an approver for a user who never said so.
 */
const DECISION_FIELDS = new Set([
  'environment',
  'target_environment',
  'region',
  'approval_group',
  'approver',
  'data_classification',
  'classification',
  'owner',
  'resource_owner',
  'destructive',
]);

/** Booleans whose `true` consents to something; their safe default is false. */
const CONSENT_FLAG = /^(confirm|confirmed|accept|allow|force|overwrite|proceed)(_|$)/;

function problemWith(name: string, value: unknown): { message: string; fix: string } | null {
  if (name === 'dry_run' && value !== true) {
    return {
      message: `dry_run defaults to ${JSON.stringify(value)}, so an omitted flag executes`,
      fix: 'Default dry_run to true (simulate unless the caller explicitly executes), or make it required.',
    };
  }
  if (CONSENT_FLAG.test(name) && value === true) {
    return {
      message: `${name} defaults to true, so consent is assumed when the caller says nothing`,
      fix: `Default ${name} to false; the caller sets it only after the user agreed.`,
    };
  }
  if (DECISION_FIELDS.has(name)) {
    return {
      message: `${name} has a default (${JSON.stringify(value)}) although it is a decision the user must make`,
      fix: `Remove the default and make ${name} required.`,
    };
  }
  return null;
}

export const safeDefaultsRule: LintRule = {
  id: 'safe-defaults',
  severity: 'error',
  summary:
    'Defaults are the safe choice: dry_run defaults to true, consent flags to false, and target or authority decisions have none.',
  check(tool) {
    const hits: RuleHit[] = [];
    walkSchema(tool.input_schema, '/input_schema', ({ node, pointer, field, property, branch }) => {
      if (property === null || branch || node.default === undefined) return;
      const problem = problemWith(property.toLowerCase(), node.default);
      if (problem) hits.push(hit(pointer, `input field ${field}: ${problem.message}`, problem.fix));
    });
    return hits;
  },
};
