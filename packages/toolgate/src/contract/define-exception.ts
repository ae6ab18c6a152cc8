import { z } from 'zod';
import { isApproverScope } from './approver-scopes.ts';
import { inputJsonSchema, type JsonSchema } from './json-schema.ts';

/** What a grant request's target may be told apart from: one of the tenant's, none of its, or malformed. */
export type ExceptionTargetCheck =
  | { readonly kind: 'known' }
  /** Nothing of this tenant: answered as not found, like another tenant's resources. */
  | { readonly kind: 'unknown' }
  | { readonly kind: 'invalid'; readonly field: string; readonly message: string };

/** What a module declares of one kind of exception a person may grant to one of its rules. */
export interface ExceptionSpec<T extends z.ZodObject = z.ZodObject> {
  /** Stable id, snake_case (`refund_over_limit`); stored with every grant and named in the contract. */
  readonly kind: string;
  /** A short title for the console's grant form. */
  readonly title: string;
  /** Which rule it sets aside, for whom, and what still applies: shown to approvers and in the contract. */
  readonly description: string;
  /**
   * What one exception is for, e.g. `z.strictObject({ customer_id: ... })`: a closed object of strings,
   * numbers, booleans or enums, each bounded. A tool asks for exactly this target; the console draws its
   * grant form from it.
   */
  readonly target: T;
  /** The scope an approver's token needs to grant or revoke one (`refunds:approve`); never the requester's own. */
  readonly grantScope: string;
  /** The longest span one exception may cover, in seconds (default 72 hours). */
  readonly maxDurationSeconds?: number;
  /**
   * Whether the target names something of this tenant (a customer, a service) an exception may be granted
   * for; without it any valid target may be granted. An `unknown` target answers 404, like another
   * tenant's resource.
   */
  readonly checkTarget?: (tenant: string, target: z.infer<T>) => Promise<ExceptionTargetCheck>;
}

/** A declared exception kind, checked: list it in a module's or a config's `exceptions`. */
export interface ExceptionDefinition<T extends z.ZodObject = z.ZodObject> extends ExceptionSpec<T> {
  readonly maxDurationSeconds: number;
  /** The target as JSON Schema 2020-12 (what the console and the contract show). */
  readonly targetJsonSchema: JsonSchema;
}

/** A declaration that breaks a rule: a programmer error, thrown before anything is served. */
export class ExceptionDefinitionError extends Error {
  override readonly name = 'ExceptionDefinitionError';
}

export const DEFAULT_EXCEPTION_SECONDS = 72 * 3600;
/** No exception kind may allow more than 90 days: a person grants an occasion, not a standing rule. */
const MAX_EXCEPTION_SECONDS = 90 * 86_400;
const KIND = /^[a-z][a-z0-9_]{0,47}$/;

/** Fields of the stored record, which a target field may not shadow (targets are also answered flat). */
export const EXCEPTION_RECORD_FIELDS = [
  'exception_id',
  'tenant',
  'kind',
  'target',
  'starts_at',
  'ends_at',
  'reason',
  'granted_by',
  'granted_at',
  'revoked_by',
  'revoked_at',
  'state',
] as const;
const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** Problems of one target field's JSON Schema: a scalar (or an enum of them), nothing nested. */
function fieldProblem(name: string, schema: JsonSchema): string | null {
  if (Array.isArray(schema.enum)) return null;
  if (typeof schema.type === 'string' && SCALAR_TYPES.has(schema.type)) return null;
  return `target field ${name} must be a string, number, boolean or enum`;
}

/**
 * Declares a kind of exception: the framework stores, grants, lists, revokes, expires and audits every
 * one of it, and a tool reads those in force with `ctx.exceptions.active(kind, target)`. Throws an
 * ExceptionDefinitionError naming every broken rule (kind, scope, target shape, duration).
 */
export function defineException<T extends z.ZodObject>(spec: ExceptionSpec<T>): ExceptionDefinition<T> {
  const problems: string[] = [];
  if (!KIND.test(spec.kind))
    problems.push('kind must be snake_case ([a-z][a-z0-9_]*, at most 48 characters)');
  if (!spec.title?.trim()) problems.push('title is required');
  if (!spec.description?.trim()) problems.push('description is required');
  if (!isApproverScope(spec.grantScope ?? '')) {
    problems.push('grantScope must be a scope of the module such as refunds:approve (not operations:*)');
  }
  const seconds = spec.maxDurationSeconds ?? DEFAULT_EXCEPTION_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 60 || seconds > MAX_EXCEPTION_SECONDS) {
    problems.push(`maxDurationSeconds must be an integer from 60 to ${MAX_EXCEPTION_SECONDS}`);
  }
  let targetJsonSchema: JsonSchema = {};
  if (!(spec.target instanceof z.ZodObject)) {
    problems.push('target must be a zod object (z.strictObject)');
  } else {
    targetJsonSchema = inputJsonSchema(spec.target);
    if (targetJsonSchema.additionalProperties !== false)
      problems.push('target must be closed (z.strictObject)');
    const properties = (targetJsonSchema.properties ?? {}) as Record<string, JsonSchema>;
    if (Object.keys(properties).length === 0) problems.push('target must name at least one field');
    for (const [name, field] of Object.entries(properties)) {
      if ((EXCEPTION_RECORD_FIELDS as readonly string[]).includes(name)) {
        problems.push(`target field ${name} is a field of the exception record; name it otherwise`);
      }
      const problem = fieldProblem(name, field);
      if (problem) problems.push(problem);
    }
    const required = new Set((targetJsonSchema.required ?? []) as string[]);
    const optional = Object.keys(properties).filter((name) => !required.has(name));
    if (optional.length > 0) {
      problems.push(
        `target fields must all be required (an exception names exactly what it is for): ${optional}`,
      );
    }
  }
  if (problems.length > 0) {
    throw new ExceptionDefinitionError(`exception ${spec.kind}: ${problems.join('; ')}`);
  }
  return Object.freeze({ ...spec, maxDurationSeconds: seconds, targetJsonSchema });
}
