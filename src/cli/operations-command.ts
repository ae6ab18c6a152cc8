import type { Command } from 'commander';
import type { ReviewCommandInput } from './operations-review.ts';

/** `toolgate operations review`: the human review queue of unknown outcomes (DESIGN.md section 4). */
export function registerOperationsCommand(program: Command): void {
  const operations = program.command('operations').description('Durable operation records.');
  operations
    .command('review')
    .description('List operations whose outcome needs a human decision, or resolve one.')
    .option('--tenant <tenant>', 'only this tenant')
    .option('--data-dir <dir>', 'data dir of the server (TOOLGATE_DATA_DIR, default ./.toolgate)')
    .option('--database-url <url>', 'PostgreSQL URL of the server (TOOLGATE_DATABASE_URL)')
    .option('--resolve <operation_id>', 'resolve this operation')
    .option('--as <resolution>', 'completed | rejected (with --resolve)')
    .option('--note <text>', 'what the operator established (with --resolve)')
    .option('--operator <name>', 'who resolves it (with --resolve)')
    .option(
      '--reference <id>',
      'what was found in the owning system, e.g. the tracker item id (with --resolve)',
    )
    .option(
      '--retention-seconds <n>',
      'keep the resolved record this long (TOOLGATE_RETENTION_SECONDS, default 86400)',
    )
    .option('--json', 'machine-readable output')
    .option('--config <file>', 'the config the server runs, so decisions reach its modules (TOOLGATE_CONFIG)')
    .action(async (raw: ReviewCommandInput & { dataDir?: string; databaseUrl?: string; config?: string }) => {
      const { runReviewCommand } = await import('./operations-review.ts');
      await runReviewCommand(raw);
    });
}
