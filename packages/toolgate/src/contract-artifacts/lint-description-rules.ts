import { hit, type LintRule, type RuleHit } from './lint-rule.ts';
import { descriptionOf, type SchemaNode } from './schema-shape.ts';
import { walkSchema } from './schema-walk.ts';

/** Short enough to read, long enough to say what, when, when not, prerequisites and result. */
const MIN_DESCRIPTION_CHARS = 120;
const MIN_PROPERTY_DESCRIPTION_CHARS = 8;

/** Phrases that tell the agent when the tool is the wrong choice. */
const WHEN_NOT_TO_USE =
  /\b(do not|don't|never (?:use|call)|not for|not to be used|instead of|use \w+ instead|rather than|only (?:after|when|if|for))\b/i;

export const descriptionPresentRule: LintRule = {
  id: 'description-present',
  severity: 'error',
  summary: 'The tool has a description that says more than its name.',
  check(tool) {
    const text = tool.description.trim();
    const nameWords = tool.name.split('_').join(' ').toLowerCase();
    const restatesName =
      text
        .toLowerCase()
        .replace(/[^a-z ]/g, '')
        .trim() === nameWords;
    if (text.length > 0 && !restatesName) return [];
    return [
      hit(
        '/description',
        text.length === 0 ? 'description is empty' : 'description only repeats the name',
        'Describe the outcome, when to use it, when not to, prerequisites and what the result contains.',
      ),
    ];
  },
};

export const descriptionLengthRule: LintRule = {
  id: 'description-length',
  severity: 'error',
  summary: `The description has at least ${MIN_DESCRIPTION_CHARS} characters.`,
  check(tool) {
    const length = tool.description.trim().length;
    if (length === 0 || length >= MIN_DESCRIPTION_CHARS) return [];
    return [
      hit(
        '/description',
        `description has ${length} characters (at least ${MIN_DESCRIPTION_CHARS})`,
        'Add when to use it, when not to, prerequisites and what the result contains.',
      ),
    ];
  },
};

export const descriptionWhenNotRule: LintRule = {
  id: 'description-when-not',
  severity: 'error',
  summary: 'The description states when not to use the tool.',
  check(tool) {
    if (tool.description.trim().length === 0 || WHEN_NOT_TO_USE.test(tool.description)) return [];
    return [
      hit(
        '/description',
        'description never says when not to use the tool',
        'Add a sentence such as "Do not use it for ...; use <other_tool> instead."',
      ),
    ];
  },
};

/**
 * A hit for every property under `schema` whose description is missing or too short to act on;
 * `side` names the fields in the message (input or result).
 */
export function undescribedProperties(
  schema: SchemaNode,
  pointer: string,
  side: 'input' | 'result',
  fix: string,
): RuleHit[] {
  const hits: RuleHit[] = [];
  walkSchema(schema, pointer, ({ node, pointer: at, field, property, branch }) => {
    if (property === null || branch) return;
    const text = descriptionOf(node);
    if (text !== null && text.trim().length >= MIN_PROPERTY_DESCRIPTION_CHARS) return;
    hits.push(hit(at, `${side} field ${field} has ${text === null ? 'no' : 'a too short'} description`, fix));
  });
  return hits;
}

export const propertyDescriptionRule: LintRule = {
  id: 'property-description',
  severity: 'error',
  summary: 'Every input property has an operational description.',
  check(tool) {
    return undescribedProperties(
      tool.input_schema,
      '/input_schema',
      'input',
      'Describe the value: meaning, format, units, limits and what the server does with it (.describe()).',
    );
  },
};

export const descriptionRules: readonly LintRule[] = [
  descriptionPresentRule,
  descriptionLengthRule,
  descriptionWhenNotRule,
  propertyDescriptionRule,
];
