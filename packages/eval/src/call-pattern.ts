import { z } from 'zod';
import { renderTemplates, type TemplateScope } from './template.ts';
import { matches } from './value-matcher.ts';

const toolName = z.string().min(1).max(80);
/** Any JSON value; strings may hold `{{templates}}`. */
const jsonValue = z.json();

/** A tool call the judge looks for: a tool name, optionally with argument matchers. */
export const callPatternSchema = z.union([
  toolName,
  z.strictObject({ tool: toolName, args: z.record(z.string(), jsonValue).optional() }),
]);
export type CallPattern = z.infer<typeof callPatternSchema>;

/** A call as patterns see it: the tool and the arguments the agent sent. */
export interface CallShape {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** True when the call is to the pattern's tool and its arguments match the (rendered) matchers. */
export function callMatches(pattern: CallPattern, call: CallShape, scope: TemplateScope): boolean {
  if (typeof pattern === 'string') return call.tool === pattern;
  if (call.tool !== pattern.tool) return false;
  return pattern.args === undefined || matches(renderTemplates(pattern.args, scope), call.args);
}

export function patternTool(pattern: CallPattern): string {
  return typeof pattern === 'string' ? pattern : pattern.tool;
}

/** The pattern as a reason shows it, templates resolved to the trial's ids. */
export function showPattern(pattern: CallPattern, scope: TemplateScope): string {
  if (typeof pattern === 'string' || pattern.args === undefined) return patternTool(pattern);
  return `${pattern.tool} ${JSON.stringify(renderTemplates(pattern.args, scope))}`;
}
