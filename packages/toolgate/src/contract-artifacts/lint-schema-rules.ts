import { anyEnvelopeSchema } from '../contract/envelope.ts';
import { hit, type LintRule, type RuleHit } from './lint-rule.ts';
import { branchesOf, isNode, type SchemaNode, typesOf } from './schema-shape.ts';
import { type SchemaVisit, walkSchema } from './schema-walk.ts';

/** Formats whose values have a bounded length by definition. */
const BOUNDED_FORMATS = new Set(['date-time', 'date', 'time', 'uuid', 'ipv4', 'ipv6']);

/**
 * Input names that let the caller assert identity, tenancy, authority, approval or a policy
 * exception. These come from the verified principal and server policy (seed 003, DESIGN section 1).
 */
const TRUSTED_CONTEXT_FIELDS = new Set([
  'tenant',
  'tenant_id',
  'org_id',
  'organization_id',
  'actor',
  'actor_id',
  'actor_role',
  'role',
  'roles',
  'user_id',
  'user_role',
  'caller',
  'caller_id',
  'subject',
  'principal',
  'scopes',
  'permissions',
  'authorized',
  'is_authorized',
  'authenticated',
  'approved',
  'approval_complete',
  'approval_granted',
  'is_admin',
  'admin',
  'as_admin',
  'superuser',
  'sudo',
  'impersonate',
  'skip_approval',
  'skip_validation',
  'force',
  'override',
  'policy_exception',
  'policy_override',
  'exception_approved',
]);
const TRUSTED_CONTEXT_PREFIXES = ['bypass_', 'is_admin', 'skip_approval', 'override_'];

/** The envelope members every output schema publishes (DESIGN section 3). */
const ENVELOPE_FIELDS = Object.keys(anyEnvelopeSchema.shape);

/** The types a node declares itself (not through its anyOf branches, which are visited on their own). */
function declares(node: SchemaNode, type: string): boolean {
  if (node.type === type || (Array.isArray(node.type) && node.type.includes(type))) return true;
  return type === 'object' && node.type === undefined && isNode(node.properties);
}

const limited = (node: SchemaNode) => 'const' in node || Array.isArray(node.enum);

/** An anchored pattern without open-ended repetition admits strings of bounded length. */
export function patternIsBounded(pattern: string): boolean {
  if (!pattern.startsWith('^') || !pattern.endsWith('$')) return false;
  const unescaped = pattern.replace(/\\./g, '');
  return !/[*+]|\{\d+,\}/.test(unescaped);
}

function inputRule(id: string, summary: string, visit: (at: SchemaVisit) => RuleHit | null): LintRule {
  return {
    id,
    severity: 'error',
    summary,
    check(tool) {
      const hits: RuleHit[] = [];
      walkSchema(tool.input_schema, '/input_schema', (at) => {
        const found = visit(at);
        if (found) hits.push(found);
      });
      return hits;
    },
  };
}

const where = (field: string) => (field === '' ? 'the input' : `input field ${field}`);

export const closedObjectRule = inputRule(
  'closed-object',
  'Input objects reject unknown fields.',
  ({ node, pointer, field }) =>
    declares(node, 'object') && node.additionalProperties !== false
      ? hit(
          pointer,
          `${where(field)} accepts unknown fields`,
          'Use z.strictObject (additionalProperties: false) so invented fields are rejected and named.',
        )
      : null,
);

export const boundedStringRule = inputRule(
  'bounded-string',
  'Input strings have a maximum length, an enum, a bounded pattern or format.',
  ({ node, pointer, field }) => {
    if (!declares(node, 'string') || limited(node) || typeof node.maxLength === 'number') return null;
    if (typeof node.format === 'string' && BOUNDED_FORMATS.has(node.format)) return null;
    if (typeof node.pattern === 'string' && patternIsBounded(node.pattern)) return null;
    return hit(
      pointer,
      `${where(field)} is a string without an upper bound`,
      'Add .max(n), an enum, or an anchored bounded pattern.',
    );
  },
);

/** A pattern on the node itself, or on one of the allOf parts zod emits for several patterns. */
function hasPattern(node: SchemaNode): boolean {
  if (typeof node.pattern === 'string') return true;
  return (
    Array.isArray(node.allOf) && node.allOf.some((part) => isNode(part) && typeof part.pattern === 'string')
  );
}

export const freeTextPatternRule = inputRule(
  'free-text-pattern',
  'Input strings say which characters they take: a pattern (free text uses textSchema), an enum or a format.',
  ({ node, pointer, field }) => {
    if (!declares(node, 'string') || limited(node) || hasPattern(node)) return null;
    if (typeof node.format === 'string') return null;
    return hit(
      pointer,
      `${where(field)} is free text that takes any character: NUL, escape and bidirectional-override characters get stored and sent on`,
      'Use textSchema({ min, max }) (schema-helpers), which refuses control, bidirectional and invisible-only text and publishes the rule as a pattern; or give the field a pattern, an enum or a format.',
    );
  },
);

export const boundedNumberRule = inputRule(
  'bounded-number',
  'Input numbers have a minimum and a maximum.',
  ({ node, pointer, field }) => {
    if (!(declares(node, 'number') || declares(node, 'integer')) || limited(node)) return null;
    const low = typeof node.minimum === 'number' || typeof node.exclusiveMinimum === 'number';
    const high = typeof node.maximum === 'number' || typeof node.exclusiveMaximum === 'number';
    if (low && high) return null;
    return hit(
      pointer,
      `${where(field)} is a number without ${low ? 'a maximum' : high ? 'a minimum' : 'bounds'}`,
      'Add .min(a).max(b) with the range the domain really accepts.',
    );
  },
);

export const boundedArrayRule = inputRule(
  'bounded-array',
  'Input arrays have a maximum number of items.',
  ({ node, pointer, field }) =>
    declares(node, 'array') && typeof node.maxItems !== 'number'
      ? hit(pointer, `${where(field)} is an array without maxItems`, 'Add .max(n) to the array.')
      : null,
);

export const trustedContextRule = inputRule(
  'trusted-context-field',
  'Inputs carry no identity, tenant, role, approval or policy-exception fields.',
  ({ pointer, field, property, branch }) => {
    if (property === null || branch) return null;
    const name = property.toLowerCase();
    if (!TRUSTED_CONTEXT_FIELDS.has(name) && !TRUSTED_CONTEXT_PREFIXES.some((p) => name.startsWith(p)))
      return null;
    return hit(
      pointer,
      `${where(field)} lets the caller assert trusted context ("${property}")`,
      'Remove it: take identity, tenant and authority from the verified principal and approvals from policy; ' +
        'if it names another party, name its role (assignee_id).',
    );
  },
);

export const outputSchemaRule: LintRule = {
  id: 'output-schema',
  severity: 'error',
  summary: 'The output schema is the full outcome envelope with a typed result.',
  check(tool) {
    const schema = tool.output_schema;
    const props = isNode(schema.properties) ? schema.properties : {};
    const missing = ENVELOPE_FIELDS.filter((f) => !isNode(props[f]));
    const fix = 'Declare the tool output with a zod schema; the registry wraps it in the envelope.';
    if (schema.type !== 'object' || missing.length > 0) {
      return [
        hit(
          '/output_schema',
          `output schema is not the outcome envelope (missing ${missing.join(', ') || 'type object'})`,
          fix,
        ),
      ];
    }
    const result = props.result as SchemaNode;
    const typed = branchesOf(result).filter((b) => b.type !== 'null');
    if (typed.length === 0 || typed.some((b) => typesOf(b) === null)) {
      return [hit('/output_schema/properties/result', 'result is untyped', fix)];
    }
    return [];
  },
};

export const schemaRules: readonly LintRule[] = [
  closedObjectRule,
  boundedStringRule,
  freeTextPatternRule,
  boundedNumberRule,
  boundedArrayRule,
  trustedContextRule,
  outputSchemaRule,
];
