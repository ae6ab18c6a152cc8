import type { EvalWorld } from './eval-world.ts';
import type { StateCheck } from './scenario-schema.ts';
import { renderTemplates, type TemplateScope } from './template.ts';
import { pathMismatches } from './value-matcher.ts';

/** Calls a read tool outside the transcript (no triggers), as the named or the scenario's principal. */
export type Prober = (
  tool: string,
  args: Record<string, unknown>,
  principal: string | undefined,
) => Promise<unknown>;

/** Evaluates one final-state check; returns what is wrong (empty when it holds). */
export async function stateCheckProblems(
  check: StateCheck,
  world: EvalWorld,
  scope: TemplateScope,
  probe: Prober,
): Promise<string[]> {
  const rendered = renderTemplates(check, scope) as StateCheck;
  // Labelled after rendering, so a reason names the trial's ids rather than the templates.
  const label = rendered.name ?? describe(rendered);
  let subject: unknown;
  let count: number | null = null;
  if (rendered.effects) {
    const effects = await world.effects(rendered.effects);
    subject = effects;
    count = effects.length;
  } else if (rendered.sql) {
    const rows = await world.query(rendered.sql, rendered.params);
    subject = rows;
    count = rows.length;
  } else if (rendered.probe) {
    subject = await probe(rendered.probe.tool, rendered.probe.args, rendered.probe.principal);
  } else {
    return [`${label}: names no effects, sql or probe`];
  }
  const problems: string[] = [];
  if (count !== null) {
    if (rendered.count !== undefined && count !== rendered.count)
      problems.push(`expected ${rendered.count}, found ${count}`);
    if (rendered.min !== undefined && count < rendered.min)
      problems.push(`expected at least ${rendered.min}, found ${count}`);
    if (rendered.max !== undefined && count > rendered.max)
      problems.push(`expected at most ${rendered.max}, found ${count}`);
  }
  if (rendered.fields) problems.push(...pathMismatches(rendered.fields, subject));
  return problems.map((p) => `${label}: ${p}`);
}

function describe(check: StateCheck): string {
  if (check.effects) {
    const { system, action, ref } = check.effects;
    return `effects ${[system, action].filter(Boolean).join('.') || '(all)'}${ref ? ` of ${ref}` : ''}`;
  }
  if (check.sql) return `sql ${check.sql.slice(0, 60)}`;
  if (check.probe) return `probe ${check.probe.tool}`;
  return 'check';
}
