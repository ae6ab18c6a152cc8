import type { Command } from 'commander';
import { guarded } from './guarded.ts';

/** `toolgate lint [FILE]`: the machine-checkable readiness checklist of seed 003; exit 1 on any error. */
export function registerLintCommand(program: Command): void {
  program
    .command('lint')
    .description(
      'Check the served tools (the demo, or --config), or an exported contract file, against the tool readiness checklist.',
    )
    .argument('[file]', 'exported contract file, - for standard input (default: the served tools)')
    .option(
      '--config <file>',
      'lint the tools of this config module (TOOLGATE_CONFIG; default ./toolgate.config.*, else the demo)',
    )
    .option('--json', 'machine-readable findings')
    .action(async (file: string | undefined, options: { json?: boolean; config?: string }) =>
      guarded('lint', async () => {
        const { lintContract, lintReportJson, lintReportText } = await import(
          '../contract-artifacts/contract-lint.ts'
        );
        const { servedContractLoader } = await import('./served-contract-loader.ts');
        const { loadContract } = await import('../contract-artifacts/served-contract.ts');
        const document = await loadContract(file, servedContractLoader('lint', options.config));
        const report = lintContract(document);
        process.stdout.write(
          options.json ? lintReportJson(report) : lintReportText(report, document.tools.length),
        );
        process.exitCode = report.ok ? 0 : 1;
      }),
    );
}
