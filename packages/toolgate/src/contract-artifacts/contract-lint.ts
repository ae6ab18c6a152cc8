import { type ContractDocument, toolLabel } from './contract-document.ts';
import { safeDefaultsRule } from './lint-default-rules.ts';
import { descriptionRules } from './lint-description-rules.ts';
import { namingRules } from './lint-naming-rules.ts';
import { publicationRules } from './lint-publication-rules.ts';
import { resultPropertyDescriptionRule } from './lint-result-rules.ts';
import type { LintFinding, LintRule } from './lint-rule.ts';
import { safetyRules } from './lint-safety-rules.ts';
import { schemaRules } from './lint-schema-rules.ts';

/** Every rule `toolgate lint` applies, in report order. */
export const LINT_RULES: readonly LintRule[] = [
  ...namingRules,
  ...descriptionRules,
  resultPropertyDescriptionRule,
  ...schemaRules,
  safeDefaultsRule,
  ...safetyRules,
  ...publicationRules,
];

export interface LintReport {
  readonly findings: LintFinding[];
  readonly errors: number;
  readonly warnings: number;
  /** False when any finding is an error: the release gate fails. */
  readonly ok: boolean;
}

/** Applies every rule to every tool; findings are ordered by tool, then rule order, then pointer. */
export function lintContract(
  document: ContractDocument,
  rules: readonly LintRule[] = LINT_RULES,
): LintReport {
  const findings: LintFinding[] = [];
  for (const tool of document.tools) {
    for (const rule of rules) {
      for (const found of rule.check(tool, document)) {
        findings.push({ rule: rule.id, severity: rule.severity, tool: toolLabel(tool, document), ...found });
      }
    }
  }
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { findings, errors, warnings: findings.length - errors, ok: errors === 0 };
}

export function lintReportJson(report: LintReport): string {
  return `${JSON.stringify({ ok: report.ok, errors: report.errors, warnings: report.warnings, findings: report.findings }, null, 2)}\n`;
}

export function lintReportText(report: LintReport, toolCount: number): string {
  const lines = report.findings.map(
    (f) =>
      `${f.severity.padEnd(7)} ${f.rule}  ${f.tool}${f.pointer === '' ? '' : ` ${f.pointer}`}\n` +
      `        ${f.message}\n        fix: ${f.fix}`,
  );
  lines.push(
    `${toolCount} tool(s) checked against ${LINT_RULES.length} rules: ${report.errors} error(s), ${report.warnings} warning(s).`,
  );
  return `${lines.join('\n')}\n`;
}
