import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ContractDiff } from '../contract-artifacts/contract-diff.ts';
import { guarded } from './guarded.ts';

function emit(text: string, out: string | undefined): void {
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}

const CONFIG_HELP = 'the tools of this config module (TOOLGATE_CONFIG; default ./toolgate.config.*)';

/**
 * `toolgate contract export | diff | docs`: the contract as a reviewable, diffable artifact. `release`
 * is the evaluation harness's (an extension command, docs/extensions.md).
 */
export function registerContractCommand(program: Command): void {
  const contract = program
    .command('contract')
    .description('Export, diff, document and release the tool contracts served (by the config).');

  contract
    .command('export')
    .description(
      'Print every tool contract as stable, sorted JSON with a SHA-256 per agent-visible definition.',
    )
    .option('--config <file>', CONFIG_HELP)
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--retention-seconds <n>', 'retention of a deployment that sets serve --retention-seconds')
    .option(
      '--policy <dir>',
      "the Cedar policy directory served (TOOLGATE_POLICY; default the config's policy)",
    )
    .option(
      '--no-commit',
      'leave out the git commit and working-tree state, so a committed contract does not change with every commit',
    )
    .action(
      async (options: {
        out?: string;
        retentionSeconds?: string;
        config?: string;
        policy?: string;
        commit: boolean;
      }) =>
        guarded('contract export', async () => {
          const retention =
            options.retentionSeconds === undefined ? undefined : Number(options.retentionSeconds);
          if (retention !== undefined && !(Number.isInteger(retention) && retention > 0)) {
            throw new Error(`--retention-seconds ${options.retentionSeconds}: must be a positive integer`);
          }
          const { servedContractLoader } = await import('./served-contract-loader.ts');
          const { serializeContract } = await import('../contract-artifacts/contract-export.ts');
          const load = servedContractLoader('contract export', options.config, {
            ...(retention === undefined ? {} : { retentionSeconds: retention }),
            ...(options.policy === undefined ? {} : { policy: options.policy }),
            commit: options.commit,
          });
          emit(serializeContract(await load()), options.out);
        }),
    );

  contract
    .command('diff')
    .description(
      'Classify every change from OLD to NEW as breaking or compatible; exit 1 when a breaking change ' +
        'is not matched by a major version bump of that tool. NEW defaults to the served contract. ' +
        'With --versions NAME, compare the versions of NAME served side by side in one contract ' +
        '(OLD, or the served tools).',
    )
    .argument('[old]', 'the earlier contract file (- for standard input)')
    .argument('[new]', 'the later contract file (default: the served tools)')
    .option('--config <file>', CONFIG_HELP)
    .option('--json', 'machine-readable report')
    .option('--allow-removed <tools...>', 'tools whose removal or rename is intended (name, or name@major)')
    .option('--versions <name>', 'compare the two served majors of this tool within one contract')
    .action(
      async (
        oldFile: string | undefined,
        newFile: string | undefined,
        options: { json?: boolean; allowRemoved?: string[]; config?: string; versions?: string },
      ) =>
        guarded('contract diff', async () => {
          const { servedContractLoader } = await import('./served-contract-loader.ts');
          const { loadContract } = await import('../contract-artifacts/served-contract.ts');
          const { diffContracts, diffVersions } = await import('../contract-artifacts/contract-diff.ts');
          const { diffReportJson, diffReportText } = await import('../contract-artifacts/diff-report.ts');
          const served = servedContractLoader('contract diff', options.config);
          let diff: ContractDiff;
          if (options.versions !== undefined) {
            if (newFile !== undefined)
              throw new Error('--versions compares within one contract: give at most one file');
            diff = diffVersions(await loadContract(oldFile, served), options.versions);
          } else {
            if (oldFile === undefined) throw new Error('give the earlier contract file, or --versions NAME');
            const before = await loadContract(oldFile, served);
            const after = await loadContract(newFile, served);
            diff = diffContracts(before, after, { allowRemoved: options.allowRemoved ?? [] });
          }
          process.stdout.write(options.json ? diffReportJson(diff) : diffReportText(diff));
          process.exitCode = diff.ok ? 0 : 1;
        }),
    );

  contract
    .command('docs')
    .description('Render the Markdown tool catalog (docs/tools.md) from a contract file or the served tools.')
    .option('--config <file>', CONFIG_HELP)
    .option('--from <file>', 'contract file to render (default: the served tools)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (options: { from?: string; out?: string; config?: string }) =>
      guarded('contract docs', async () => {
        const { servedContractLoader } = await import('./served-contract-loader.ts');
        const { loadContract } = await import('../contract-artifacts/served-contract.ts');
        const { renderToolCatalog } = await import('../contract-artifacts/tool-catalog-doc.ts');
        emit(
          renderToolCatalog(
            await loadContract(options.from, servedContractLoader('contract docs', options.config)),
          ),
          options.out,
        );
      }),
    );
}
