import { createRequire } from 'node:module';
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { definitionHash } from './contract-export.ts';
import { hit, type LintRule } from './lint-rule.ts';

/** Rules on what is published next to the schemas: the examples and the pinned definition hash. */
export const examplesPresentRule: LintRule = {
  id: 'examples-present',
  severity: 'error',
  summary: 'Every tool has at least one realistic example call.',
  check(tool) {
    if (tool.examples.length > 0) return [];
    return [
      hit('/examples', 'tool has no example', 'Add an example with realistic values for the common case.'),
    ];
  },
};

let validator: AjvJsonSchemaValidator | undefined;

/**
 * The MCP SDK's own validator (ajv with ajv-formats), so examples are judged as an MCP client judges
 * arguments; loaded on first need, since only this rule uses it.
 */
function sdkValidator(): AjvJsonSchemaValidator {
  if (validator === undefined) {
    const sdk = createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv') as {
      AjvJsonSchemaValidator: typeof AjvJsonSchemaValidator;
    };
    validator = new sdk.AjvJsonSchemaValidator();
  }
  return validator;
}

export const examplesValidRule: LintRule = {
  id: 'examples-valid',
  severity: 'error',
  summary: 'Every example is valid against the published input schema (as an MCP client validates it).',
  check(tool) {
    const schema = tool.input_schema as JsonSchemaType;
    let validate: ReturnType<AjvJsonSchemaValidator['getValidator']>;
    try {
      validate = sdkValidator().getValidator(schema);
    } catch (error) {
      return [
        hit(
          '/input_schema',
          `input schema does not compile: ${(error as Error).message}`,
          'Publish a valid JSON Schema 2020-12.',
        ),
      ];
    }
    return tool.examples.flatMap((example, i) => {
      const result = validate(example.input);
      return result.valid
        ? []
        : [
            hit(
              `/examples/${i}/input`,
              `example "${example.title}" is invalid: ${result.errorMessage}`,
              'Fix the example so it passes the input schema.',
            ),
          ];
    });
  },
};

export const definitionHashRule: LintRule = {
  id: 'definition-hash',
  severity: 'error',
  summary: 'The pinned definition hash matches the definition (no hand edits to the contract file).',
  check(tool) {
    if (definitionHash(tool) === tool.definition_sha256) return [];
    return [
      hit(
        '/definition_sha256',
        'definition_sha256 does not match name, description, schemas and annotations',
        'Change the tool in code and re-export: npx toolgate contract export --out contracts/toolgate.contract.json',
      ),
    ];
  },
};
export const publicationRules: readonly LintRule[] = [
  examplesPresentRule,
  examplesValidRule,
  definitionHashRule,
];
