import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { diffContracts } from '../contract-artifacts/contract-diff.ts';
import { serializeContract } from '../contract-artifacts/contract-export.ts';
import { diffReportJson, diffReportText } from '../contract-artifacts/diff-report.ts';
import { buildReferenceContract, loadContract } from '../contract-artifacts/reference-contract.ts';
import { renderToolCatalog } from '../contract-artifacts/tool-catalog-doc.ts';

/** Exit status when the command could not do its job at all (unreadable file), as opposed to a failed gate. */
const USAGE_FAILURE = 2;

function emit(text: string, out: string | undefined): void {
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}

/** Runs a command's work; a failure to do it at all is reported on stderr with exit status 2. */
export async function guarded(command: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    process.stderr.write(`toolgate ${command}: ${(error as Error).message}\n`);
    process.exitCode = USAGE_FAILURE;
  }
}

/** `toolgate contract export | diff | docs`: the contract as a reviewable, diffable artifact. */
export function registerContractCommand(program: Command): void {
  const contract = program
    .command('contract')
    .description('Export, diff and document the tool contracts this build serves.');

  contract
    .command('export')
    .description(
      'Print every tool contract as stable, sorted JSON with a SHA-256 per agent-visible definition.',
    )
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--retention-seconds <n>', 'retention of a deployment that sets serve --retention-seconds')
    .action(async (options: { out?: string; retentionSeconds?: string }) =>
      guarded('contract export', async () => {
        const retention =
          options.retentionSeconds === undefined ? undefined : Number(options.retentionSeconds);
        if (retention !== undefined && !(Number.isInteger(retention) && retention > 0)) {
          throw new Error(`--retention-seconds ${options.retentionSeconds}: must be a positive integer`);
        }
        const document = await buildReferenceContract(
          retention === undefined ? {} : { retentionSeconds: retention },
        );
        emit(serializeContract(document), options.out);
      }),
    );

  contract
    .command('diff')
    .description(
      'Classify every change from OLD to NEW as breaking or compatible; exit 1 when a breaking change ' +
        'is not matched by a major version bump of that tool. NEW defaults to the contract of this build.',
    )
    .argument('<old>', 'the earlier contract file (- for standard input)')
    .argument('[new]', 'the later contract file (default: this build)')
    .option('--json', 'machine-readable report')
    .option('--allow-removed <tools...>', 'tools whose removal or rename is intended')
    .action(
      async (
        oldFile: string,
        newFile: string | undefined,
        options: { json?: boolean; allowRemoved?: string[] },
      ) =>
        guarded('contract diff', async () => {
          const before = await loadContract(oldFile);
          const after = await loadContract(newFile);
          const diff = diffContracts(before, after, { allowRemoved: options.allowRemoved ?? [] });
          process.stdout.write(options.json ? diffReportJson(diff) : diffReportText(diff));
          process.exitCode = diff.ok ? 0 : 1;
        }),
    );

  contract
    .command('docs')
    .description('Render the Markdown tool catalog (docs/tools.md) from a contract file or this build.')
    .option('--from <file>', 'contract file to render (default: this build)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(async (options: { from?: string; out?: string }) =>
      guarded('contract docs', async () =>
        emit(renderToolCatalog(await loadContract(options.from)), options.out),
      ),
    );
}
