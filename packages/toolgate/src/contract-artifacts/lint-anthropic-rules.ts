import {
  inputVisits,
  isObjectNode,
  keywordRule,
  objectRule,
  optionalProperties,
} from './lint-profile-rule.ts';
import { hit, type LintRule } from './lint-rule.ts';
import { ANTHROPIC_FORMATS } from './provider-view.ts';

/** Regular-expression features strict tools do not compile: backreferences, lookaround, word boundaries. */
const UNSUPPORTED_PATTERN = /\\[1-9]|\(\?[=!<]|\\b|\\B/;
/** Optional parameters strict tools allow in all the schemas of one request; one tool must fit alone. */
const MAX_OPTIONAL = 24;

/**
 * What Anthropic's strict tool use (`strict: true`, grammar-constrained) refuses in `input_schema`: open
 * objects, numeric and length bounds, arrays bounded beyond minItems 0 or 1, formats it does not list,
 * regular-expression features it does not compile, and more optional parameters than a request allows.
 */
export const anthropicRules: readonly LintRule[] = [
  objectRule({
    id: 'anthropic/closed-objects',
    summary: 'Every object sets additionalProperties: false.',
    problem: (node) =>
      node.additionalProperties === false ? null : 'the object does not set additionalProperties: false',
    fix: 'Use z.strictObject for every object of the input.',
  }),
  keywordRule({
    id: 'anthropic/unsupported-keyword',
    summary: 'No numeric or length bounds, no maxItems, minItems only 0 or 1, only listed formats.',
    provider: 'Anthropic strict tool use',
    keywords: [
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'minLength',
      'maxLength',
      'maxItems',
      'minItems',
      'format',
    ],
    accepts: (keyword, value) =>
      (keyword === 'minItems' && (value === 0 || value === 1)) ||
      (keyword === 'format' && typeof value === 'string' && ANTHROPIC_FORMATS.has(value)),
    fix: 'Move the bound into the description; the gateway still enforces the full schema.',
  }),
  {
    id: 'anthropic/pattern-features',
    severity: 'error',
    summary: 'Patterns use no backreferences, lookaround or word boundaries.',
    check: (tool) =>
      inputVisits(tool)
        .filter((at) => typeof at.node.pattern === 'string' && UNSUPPORTED_PATTERN.test(at.node.pattern))
        .map((at) =>
          hit(
            `${at.pointer}/pattern`,
            `input field ${at.field} has a pattern with a backreference, lookaround or word boundary, which strict tools do not compile.`,
            'Write the pattern with plain classes and quantifiers.',
          ),
        ),
  },
  {
    id: 'anthropic/optional-parameters',
    severity: 'error',
    summary: `At most ${MAX_OPTIONAL} optional parameters in a tool's input.`,
    check: (tool) => {
      const optional = inputVisits(tool)
        .filter((at) => isObjectNode(at.node))
        .reduce((sum, at) => sum + optionalProperties(at.node).length, 0);
      return optional > MAX_OPTIONAL
        ? [
            hit(
              '/input_schema',
              `the input has ${optional} optional parameters; strict tools allow ${MAX_OPTIONAL} in a whole request.`,
              'Make fields required, or split the tool.',
            ),
          ]
        : [];
    },
  },
];
