import type { ContractTool } from './contract-document.ts';
import { hit, type LintRule, type RuleHit } from './lint-rule.ts';
import { isNode, type SchemaNode } from './schema-shape.ts';
import { type SchemaVisit, walkSchema } from './schema-walk.ts';

/** Every subschema of a tool's input schema: what a provider's function calling receives as parameters. */
export function inputVisits(tool: ContractTool): SchemaVisit[] {
  const visits: SchemaVisit[] = [];
  if (isNode(tool.input_schema)) walkSchema(tool.input_schema, '/input_schema', (at) => visits.push(at));
  return visits;
}

/** Whether a node describes an object (by its type or by having properties). */
export function isObjectNode(node: SchemaNode): boolean {
  const { type } = node;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || isNode(node.properties);
}

const where = (at: SchemaVisit) => (at.field === '' ? 'the input' : `input field ${at.field}`);

/**
 * A provider rule refusing keywords its schema subset does not list. `accepts` may allow some values of
 * a keyword (a format the provider knows, `additionalProperties: false`).
 */
export function keywordRule(options: {
  readonly id: string;
  readonly summary: string;
  readonly provider: string;
  readonly keywords: readonly string[];
  readonly accepts?: (keyword: string, value: unknown) => boolean;
  readonly fix: string;
}): LintRule {
  return {
    id: options.id,
    severity: 'error',
    summary: options.summary,
    check(tool) {
      const hits: RuleHit[] = [];
      for (const at of inputVisits(tool)) {
        for (const keyword of options.keywords) {
          if (!(keyword in at.node)) continue;
          const value = at.node[keyword];
          if (options.accepts?.(keyword, value)) continue;
          hits.push(
            hit(
              `${at.pointer}/${keyword}`,
              `${where(at)} uses ${keyword} (${JSON.stringify(value)?.slice(0, 60)}), which ${options.provider} does not accept.`,
              options.fix,
            ),
          );
        }
      }
      return hits;
    },
  };
}

/** A provider rule over every object of the input: `problem` answers what is wrong with one, or null. */
export function objectRule(options: {
  readonly id: string;
  readonly summary: string;
  readonly problem: (node: SchemaNode) => string | null;
  readonly fix: string;
}): LintRule {
  return {
    id: options.id,
    severity: 'error',
    summary: options.summary,
    check(tool) {
      return inputVisits(tool)
        .filter((at) => isObjectNode(at.node))
        .flatMap((at) => {
          const problem = options.problem(at.node);
          return problem === null ? [] : [hit(at.pointer, `${where(at)}: ${problem}`, options.fix)];
        });
    },
  };
}

/** Property names of an object node that its `required` leaves out. */
export function optionalProperties(node: SchemaNode): string[] {
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  return isNode(node.properties) ? Object.keys(node.properties).filter((name) => !required.has(name)) : [];
}
