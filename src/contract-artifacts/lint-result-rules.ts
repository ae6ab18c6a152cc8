import { MIN_PROPERTY_DESCRIPTION_CHARS } from './lint-description-rules.ts';
import { hit, type LintRule, type RuleHit } from './lint-rule.ts';
import { descriptionOf, isNode } from './schema-shape.ts';
import { walkSchema } from './schema-walk.ts';

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
    const hits: RuleHit[] = [];
    walkSchema(result, RESULT_POINTER, ({ node, pointer, field, property, branch }) => {
      if (property === null || branch) return;
      const text = descriptionOf(node);
      if (text !== null && text.trim().length >= MIN_PROPERTY_DESCRIPTION_CHARS) return;
      hits.push(
        hit(
          pointer,
          `result field ${field} has ${text === null ? 'no' : 'a too short'} description`,
          'Describe what the value means, its units or format, and how the agent should act on or report it (.describe()).',
        ),
      );
    });
    return hits;
  },
};
