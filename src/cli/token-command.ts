import type { Command } from 'commander';
import { ACTORS } from '../auth/principal.ts';
import { DEFAULT_TOKEN_TTL_SECONDS } from '../auth/token-defaults.ts';

/** `toolgate token`: prints only a dev JWT the server with the same data dir accepts. */
export function registerTokenCommand(program: Command): void {
  program
    .command('token')
    .description('Print a dev token signed with the data dir key (nothing else is printed).')
    .requiredOption('--sub <subject>', 'subject (user or service id)')
    .requiredOption('--tenant <tenant>', 'tenant the subject acts in')
    .requiredOption('--actor <actor>', `one of ${ACTORS.join(', ')}`)
    .option('--scopes <scopes>', 'space-separated scopes', '')
    .option('--groups <groups>', 'space-separated group memberships (claim groups; policies read them)', '')
    .option('--ttl <seconds>', 'lifetime in seconds', String(DEFAULT_TOKEN_TTL_SECONDS))
    .option('--data-dir <dir>', 'data dir of the server (TOOLGATE_DATA_DIR, default ./.toolgate)')
    .option('--port <port>', 'port of the server (TOOLGATE_PORT, default 8787); sets the audience')
    .option(
      '--audience <url>',
      'resource URL of the server (default: what serve would use, http://127.0.0.1:8787/mcp)',
    )
    .option(
      '--config <file>',
      'mint for the server this config runs: its data dir, host and port (TOOLGATE_CONFIG; default ./toolgate.config.*, else the demo)',
    )
    .action(async (raw: Record<string, string | undefined>) => {
      const { runTokenCommand } = await import('./token-run.ts');
      await runTokenCommand(raw);
    });
}
