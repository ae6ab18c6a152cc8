import { inputVisits, keywordRule } from './lint-profile-rule.ts';
import type { LintRule } from './lint-rule.ts';
import { hit } from './lint-rule.ts';

/**
 * What Gemini's function declarations refuse in `parameters`, the OpenAPI 3.0 Schema subset (type,
 * format, description, nullable, enum, items, properties, required, min/maxItems, min/maxLength,
 * min/maxProperties, pattern, minimum, maximum, anyOf, default, example): JSON Schema keywords outside
 * it, a type given as a list (nullable is a flag), and enums of anything but strings.
 */
export const geminiRules: readonly LintRule[] = [
  keywordRule({
    id: 'gemini/unsupported-keyword',
    summary: 'Only keywords of the OpenAPI Schema subset appear.',
    provider: 'Gemini function calling',
    keywords: [
      'additionalProperties',
      '$ref',
      '$defs',
      'definitions',
      'allOf',
      'oneOf',
      'not',
      'const',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'multipleOf',
      'uniqueItems',
      'patternProperties',
      'propertyNames',
      '$schema',
    ],
    fix: 'Leave the keyword out of what Gemini receives (an enum for a const, required for a closed object); the gateway still enforces the full schema.',
  }),
  {
    id: 'gemini/type-list',
    severity: 'error',
    summary: 'type is one name; nullable fields say nullable: true.',
    check: (tool) =>
      inputVisits(tool)
        .filter((at) => Array.isArray(at.node.type))
        .map((at) =>
          hit(
            `${at.pointer}/type`,
            `input field ${at.field || '(root)'} gives type as a list (${JSON.stringify(at.node.type)}), which Gemini does not accept.`,
            'Give one type and nullable: true for a nullable field.',
          ),
        ),
  },
  {
    id: 'gemini/string-enum',
    severity: 'error',
    summary: 'enum values are strings.',
    check: (tool) =>
      inputVisits(tool)
        .filter(
          (at) => Array.isArray(at.node.enum) && at.node.enum.some((value) => typeof value !== 'string'),
        )
        .map((at) =>
          hit(
            `${at.pointer}/enum`,
            `input field ${at.field || '(root)'} has enum values that are not strings, which Gemini does not accept.`,
            'Use string values (and parse them in the handler), or bounds instead of an enum.',
          ),
        ),
  },
];
