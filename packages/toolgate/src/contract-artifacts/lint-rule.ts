import { z } from 'zod';
import type { ContractDocument, ContractTool } from './contract-document.ts';

export const lintFindingSchema = z.strictObject({
  rule: z.string(),
  severity: z.enum(['error', 'warning']),
  /** The tool concerned; empty for findings about the catalog as a whole. */
  tool: z.string(),
  /** JSON pointer into the tool's entry of the contract. */
  pointer: z.string(),
  message: z.string(),
  /** One line saying what to change. */
  fix: z.string(),
});
export type LintFinding = z.infer<typeof lintFindingSchema>;
export type LintSeverity = LintFinding['severity'];

/** What a rule reports; the runner adds the rule id, severity and tool. */
export interface RuleHit {
  readonly pointer: string;
  readonly message: string;
  readonly fix: string;
}

/**
 * One machine-checkable item of the readiness checklist (seed 003). A rule looks at one tool, with
 * the whole contract at hand for rules that compare tools (uniqueness, near-duplicates).
 */
export interface LintRule {
  readonly id: string;
  readonly severity: LintSeverity;
  /** The checklist item, as the catalog of rules prints it. */
  readonly summary: string;
  check(tool: ContractTool, document: ContractDocument): RuleHit[];
}

export function hit(pointer: string, message: string, fix: string): RuleHit {
  return { pointer, message, fix };
}
