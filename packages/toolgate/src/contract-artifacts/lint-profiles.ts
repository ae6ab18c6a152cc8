import { type ContractDocument, toolLabel } from './contract-document.ts';
import { type LintReport, lintContract } from './contract-lint.ts';
import { anthropicRules } from './lint-anthropic-rules.ts';
import { geminiRules } from './lint-gemini-rules.ts';
import { openAiStrictRules } from './lint-openai-strict-rules.ts';
import type { LintRule } from './lint-rule.ts';
import { type MovedKeyword, providerInputSchema } from './provider-view.ts';

/**
 * What each provider's function calling rejects in a tool's parameters, by profile name for
 * `toolgate lint --profile`. They check each tool's provider view (providerInputSchema): the listed
 * schema with what the provider refuses but only narrows a value said in words; what tools/list serves,
 * and what the gateway enforces, is unchanged.
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

/** A profile's findings on the provider views of a contract's tools, and what each view said in words. */
export interface ProfileReport extends LintReport {
  /** Per tool label: the keywords its view moved into descriptions. */
  readonly moved: ReadonlyMap<string, readonly MovedKeyword[]>;
}

/** Lints every tool's provider view with the profile's rules. */
export function lintProfile(profile: LintProfileName, document: ContractDocument): ProfileReport {
  const moved = new Map<string, readonly MovedKeyword[]>();
  const viewed: ContractDocument = {
    ...document,
    tools: document.tools.map((tool) => {
      const view = providerInputSchema(profile, tool.input_schema);
      moved.set(toolLabel(tool, document), view.moved);
      return { ...tool, input_schema: view.schema };
    }),
  };
  return { ...lintContract(viewed, LINT_PROFILES[profile]), moved };
}

/** The findings of one profile, then one line per tool and the total: what to change for this provider. */
export function profileReportText(
  profile: LintProfileName,
  report: ProfileReport,
  document: ContractDocument,
): string {
  const { tools } = document;
  const lines = report.findings.map(
    (f) =>
      `${f.severity.padEnd(7)} ${f.rule}  ${f.tool} ${f.pointer}\n        ${f.message}\n        fix: ${f.fix}`,
  );
  for (const name of tools.map((tool) => toolLabel(tool, document))) {
    const count = report.findings.filter((f) => f.tool === name).length;
    const said = (report.moved.get(name) ?? []).filter((m) => m.words !== '').length;
    const words = said === 0 ? '' : ` (${said} bound(s) said in descriptions; the gateway enforces them)`;
    lines.push(
      `${name}: ${count === 0 ? `accepted by ${profile}${words}` : `${count} finding(s) ${profile} rejects`}`,
    );
  }
  lines.push(
    `${tools.length} tool(s) checked against the ${profile} profile (${LINT_PROFILES[profile].length} rules): ` +
      `${report.errors} error(s), ${report.warnings} warning(s).`,
  );
  return `${lines.join('\n')}\n`;
}
