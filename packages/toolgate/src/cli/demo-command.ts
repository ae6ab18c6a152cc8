import type { Command } from 'commander';

/** `toolgate demo tokens`: a dev token for every demo principal the config's extensions offer. */
export function registerDemoCommand(program: Command): void {
  const demo = program.command('demo').description('The demo world of the served modules.');
  demo
    .command('tokens')
    .description('Print a dev token for every demo principal (and the test API controller).')
    .option('--config <file>', 'the config the server runs (TOOLGATE_CONFIG; default ./toolgate.config.*)')
    .option('--data-dir <dir>', 'data dir of the server (TOOLGATE_DATA_DIR, default ./.toolgate)')
    .option('--audience <url>', 'resource URL of the server (default: what serve would use)')
    .action(async (raw: { config?: string; dataDir?: string; audience?: string }) => {
      const { runDemoTokens } = await import('./demo-tokens.ts');
      await runDemoTokens(raw);
    });
}
