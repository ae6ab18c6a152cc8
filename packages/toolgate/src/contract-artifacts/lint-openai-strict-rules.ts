import { keywordRule, objectRule, optionalProperties } from './lint-profile-rule.ts';
import type { LintRule } from './lint-rule.ts';
import { OPENAI_FORMATS } from './provider-view.ts';

/**
 * What OpenAI's strict function calling (Structured Outputs, `strict: true`) refuses in a tool's
 * parameters: every object closed and every property required (optional as a union with null), and only
 * the keywords of its documented subset (strings: pattern and format; numbers: minimum, maximum,
 * exclusive bounds, multipleOf; arrays: minItems, maxItems).
 */
export const openAiStrictRules: readonly LintRule[] = [
  objectRule({
    id: 'openai-strict/closed-objects',
    summary: 'Every object sets additionalProperties: false.',
    problem: (node) =>
      node.additionalProperties === false ? null : 'the object does not set additionalProperties: false',
    fix: 'Use z.strictObject for every object of the input.',
  }),
  objectRule({
    id: 'openai-strict/all-required',
    summary: 'Every property of every object is listed in required.',
    problem: (node) => {
      const optional = optionalProperties(node);
      return optional.length === 0 ? null : `${optional.join(', ')} not listed in required`;
    },
    fix: 'Make the field required and nullable (.nullable() instead of .optional()); the handler treats null as absent.',
  }),
  keywordRule({
    id: 'openai-strict/unsupported-keyword',
    summary: 'Only keywords of the strict subset appear.',
    provider: 'OpenAI strict mode',
    keywords: [
      'minLength',
      'maxLength',
      'default',
      'allOf',
      'not',
      'if',
      'then',
      'else',
      'dependentRequired',
      'dependentSchemas',
      'patternProperties',
      'unevaluatedProperties',
      'propertyNames',
      'minProperties',
      'maxProperties',
      'uniqueItems',
      'contains',
      'format',
    ],
    accepts: (keyword, value) =>
      keyword === 'format' && typeof value === 'string' && OPENAI_FORMATS.has(value),
    fix: 'Move the bound into the description (and a pattern where it is a shape); the gateway still enforces the full schema.',
  }),
];
