import type { Command } from 'commander';
import type { ApiReviewInput } from './operator-api-review.ts';

/** `toolgate operations review`: the human review queue of unknown outcomes, over the operator API. */
export function registerOperationsCommand(program: Command): void {
  const operations = program.command('operations').description('Durable operation records.');
  operations
    .command('review')
    .description(
      'List operations whose outcome needs a human decision, or resolve one, through the gateway operator API.',
    )
    .option('--url <url>', 'the gateway (TOOLGATE_URL, default http://127.0.0.1:8787)')
    .option(
      '--token <jwt>',
      'operator bearer token with operations:review (prefer TOOLGATE_OPERATOR_TOKEN: arguments show in ps)',
    )
    .option('--resolve <operation_id>', 'resolve this operation')
    .option('--as <resolution>', 'completed | rejected (with --resolve)')
    .option('--note <text>', 'what the operator established (with --resolve)')
    .option(
      '--reference <id>',
      'what was found in the owning system, e.g. the tracker item id (with --resolve)',
    )
    .option('--json', 'machine-readable output')
    .action(async (raw: ApiReviewInput) => {
      const { reviewOverApi } = await import('./operator-api-review.ts');
      process.exitCode = await reviewOverApi(raw, (line) => process.stdout.write(`${line}\n`));
    });
}
