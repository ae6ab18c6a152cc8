import type { Command } from 'commander';
import { guarded } from './guarded.ts';

/** `toolgate lint [FILE]`: the machine-checkable readiness checklist of seed 003; exit 1 on any error. */
export function registerLintCommand(program: Command): void {
  program
    .command('lint')
    .description(
      'Check the served tools (of the config), or an exported contract file, against the tool readiness checklist.',
    )
    .argument('[file]', 'exported contract file, - for standard input (default: the served tools)')
    .option(
      '--config <file>',
      'lint the tools of this config module (TOOLGATE_CONFIG; default ./toolgate.config.*)',
    )
    .option('--json', 'machine-readable findings')
    .option(
      '--profile <provider>',
      "check only what this provider's function calling rejects in the tools' parameters: openai-strict, anthropic or gemini",
    )
    .action(
      async (file: string | undefined, options: { json?: boolean; config?: string; profile?: string }) =>
        guarded('lint', async () => {
          const { lintContract, lintReportJson, lintReportText } = await import(
            '../contract-artifacts/contract-lint.ts'
          );
          const profiles = await import('../contract-artifacts/lint-profiles.ts');
          const { profile } = options;
          if (profile !== undefined && !profiles.isLintProfileName(profile)) {
            process.stderr.write(
              `toolgate lint: unknown profile ${JSON.stringify(profile)}; use one of ${profiles.LINT_PROFILE_NAMES.join(', ')}.\n`,
            );
            process.exitCode = 2;
            return;
          }
          const { servedContractLoader } = await import('./served-contract-loader.ts');
          const { loadContract } = await import('../contract-artifacts/served-contract.ts');
          const document = await loadContract(file, servedContractLoader('lint', options.config));
          if (profile !== undefined) {
            const report = profiles.lintProfile(profile, document);
            process.stdout.write(
              options.json ? lintReportJson(report) : profiles.profileReportText(profile, report, document),
            );
            process.exitCode = report.ok ? 0 : 1;
            return;
          }
          const report = lintContract(document);
          process.stdout.write(
            options.json ? lintReportJson(report) : lintReportText(report, document.tools.length),
          );
          process.exitCode = report.ok ? 0 : 1;
        }),
    );
}
