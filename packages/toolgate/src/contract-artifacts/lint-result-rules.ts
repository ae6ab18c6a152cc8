import { undescribedProperties } from './lint-description-rules.ts';
import type { LintRule } from './lint-rule.ts';
import { isNode } from './schema-shape.ts';

const RESULT_POINTER = '/output_schema/properties/result';

/**
 * Agents read results from the schema alone (seed 003, "Return High-Signal Data"): a result field
 * without a sentence saying what it means and how to act on it gets guessed at, and a guessed
 * `status: submitted` becomes "done" in the answer to the user. The envelope's own members are
 * described once in the envelope; this rule looks only inside `result`.
 */
export const resultPropertyDescriptionRule: LintRule = {
  id: 'result-property-description',
  severity: 'error',
  summary: 'Every result property has an operational description.',
  check(tool) {
    const envelope = isNode(tool.output_schema.properties) ? tool.output_schema.properties : {};
    const result = envelope.result;
    if (!isNode(result)) return [];
    return undescribedProperties(
      result,
      RESULT_POINTER,
      'result',
      'Describe what the value means, its units or format, and how the agent should act on or report it (.describe()).',
    );
  },
};
