import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { ACTORS, type Principal } from '../auth/principal.ts';
import type { PolicyEngine } from './policy-engine.ts';
import type { PolicyValue } from './policy-entity.ts';

const entityRef = z.strictObject({ type: z.string().min(1), id: z.string().min(1) });

const caseSchema = z.strictObject({
  name: z.string().min(1),
  principal: z.strictObject({
    sub: z.string().min(1),
    tenant: z.string().min(1),
    actor: z.enum(ACTORS),
    scopes: z.array(z.string()).default([]),
    groups: z.array(z.string()).default([]),
  }),
  /** The tool's name. */
  action: z.string().min(1),
  /** Absent: the tool's default resource, `Tool::"<action>"` in the principal's tenant. */
  resource: z
    .strictObject({
      type: z.string().min(1),
      id: z.string().min(1),
      attributes: z.record(z.string(), z.unknown()).default({}),
      parents: z.array(entityRef).default([]),
    })
    .optional(),
  input: z.record(z.string(), z.unknown()).default({}),
  facts: z.record(z.string(), z.unknown()).default({}),
  expect: z.enum(['allow', 'deny']),
  /** For a deny: the id of the deciding policy (`default-deny` when the action has no permit with a reason). */
  policy: z.string().min(1).optional(),
  /** For a deny: the public reason, word for word. */
  reason: z.string().min(1).optional(),
});

const casesFileSchema = z.strictObject({ cases: z.array(caseSchema).min(1) });

export type PolicyCase = z.infer<typeof caseSchema>;

/** One case's result: passed, or what was decided instead. */
export interface PolicyCaseResult {
  readonly name: string;
  readonly passed: boolean;
  /** What the engine decided, as `allow` or `deny by <policy>: <reason>`. */
  readonly decided: string;
  readonly expected: string;
}

/** Reads a cases file; throws an Error naming the file and every problem. */
export function readPolicyCases(file: string): PolicyCase[] {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const parsed = casesFileSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`);
    throw new Error(`${file}: not a policy cases file\n  ${problems.join('\n  ')}`);
  }
  return parsed.data.cases;
}

/** Decides each case with the engine and compares with what the case expects. */
export function runPolicyCases(engine: PolicyEngine, cases: readonly PolicyCase[]): PolicyCaseResult[] {
  return cases.map((c) => {
    const principal: Principal = {
      subject: c.principal.sub,
      tenant: c.principal.tenant,
      actor: c.principal.actor,
      scopes: new Set(c.principal.scopes),
      groups: [...new Set(c.principal.groups)].sort(),
    };
    const resource = c.resource
      ? { ...c.resource, attributes: c.resource.attributes as Record<string, PolicyValue> }
      : { type: 'Tool', id: c.action, attributes: { tenant: principal.tenant } };
    const decision = engine.decide({ principal, action: c.action, resource, input: c.input, facts: c.facts });
    const policyId = decision.allowed ? null : (decision.policyId ?? 'default-deny');
    const decided = decision.allowed ? 'allow' : `deny by ${policyId}: ${decision.reason}`;
    const passed =
      (decision.allowed ? 'allow' : 'deny') === c.expect &&
      (c.policy === undefined || c.policy === policyId) &&
      (c.reason === undefined || (!decision.allowed && c.reason === decision.reason));
    const expected =
      c.expect === 'allow'
        ? 'allow'
        : `deny${c.policy ? ` by ${c.policy}` : ''}${c.reason ? `: ${c.reason}` : ''}`;
    return { name: c.name, passed, decided, expected };
  });
}
