import { type ContractDocument, toolLabel } from './contract-document.ts';
import type { LintReport } from './contract-lint.ts';
import { anthropicRules } from './lint-anthropic-rules.ts';
import { geminiRules } from './lint-gemini-rules.ts';
import { openAiStrictRules } from './lint-openai-strict-rules.ts';
import type { LintRule } from './lint-rule.ts';

/**
 * What each provider's function calling rejects in a tool's parameters, by profile name for
 * `toolgate lint --profile`. They check the contract as listed; what tools/list serves is unchanged.
 */
export const LINT_PROFILES = {
  'openai-strict': openAiStrictRules,
  anthropic: anthropicRules,
  gemini: geminiRules,
} as const satisfies Record<string, readonly LintRule[]>;

export type LintProfileName = keyof typeof LINT_PROFILES;
export const LINT_PROFILE_NAMES = Object.keys(LINT_PROFILES) as LintProfileName[];

export function isLintProfileName(name: string): name is LintProfileName {
  return Object.hasOwn(LINT_PROFILES, name);
}

/** The findings of one profile, then one line per tool and the total: what to change for this provider. */
export function profileReportText(
  profile: LintProfileName,
  report: LintReport,
  document: ContractDocument,
): string {
  const { tools } = document;
  const lines = report.findings.map(
    (f) =>
      `${f.severity.padEnd(7)} ${f.rule}  ${f.tool} ${f.pointer}\n        ${f.message}\n        fix: ${f.fix}`,
  );
  for (const name of tools.map((tool) => toolLabel(tool, document))) {
    const count = report.findings.filter((f) => f.tool === name).length;
    lines.push(
      `${name}: ${count === 0 ? `accepted by ${profile}` : `${count} finding(s) ${profile} rejects`}`,
    );
  }
  lines.push(
    `${tools.length} tool(s) checked against the ${profile} profile (${LINT_PROFILES[profile].length} rules): ` +
      `${report.errors} error(s), ${report.warnings} warning(s).`,
  );
  return `${lines.join('\n')}\n`;
}
