import type { Command } from 'commander';
import { lintContract, lintReportJson, lintReportText } from '../contract-artifacts/contract-lint.ts';
import { loadContract } from '../contract-artifacts/reference-contract.ts';
import { guarded } from './contract-command.ts';

/** `toolgate lint [FILE]`: the machine-checkable readiness checklist of seed 003; exit 1 on any error. */
export function registerLintCommand(program: Command): void {
  program
    .command('lint')
    .description(
      'Check the built-in tools, or an exported contract file, against the tool readiness checklist.',
    )
    .argument('[file]', 'exported contract file, - for standard input (default: the tools of this build)')
    .option('--json', 'machine-readable findings')
    .action(async (file: string | undefined, options: { json?: boolean }) =>
      guarded('lint', async () => {
        const document = await loadContract(file);
        const report = lintContract(document);
        process.stdout.write(
          options.json ? lintReportJson(report) : lintReportText(report, document.tools.length),
        );
        process.exitCode = report.ok ? 0 : 1;
      }),
    );
}
