import type { Command } from 'commander';
import { ACTORS } from '../auth/principal.ts';
import { DEFAULT_TOKEN_TTL_SECONDS } from '../auth/token-defaults.ts';
import { SERVE_SETTINGS } from '../config/serve-settings.ts';
import { MCP_PATH } from '../transport/endpoint-defaults.ts';

const { dataDir, host, port } = SERVE_SETTINGS;

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
    .option(`${dataDir.flag} <dir>`, `data dir of the server (${dataDir.env}, default ${dataDir.default})`)
    .option(
      `${port.flag} <port>`,
      `port of the server (${port.env}, default ${port.default}); sets the audience`,
    )
    .option(
      '--audience <url>',
      `resource URL of the server (default: what serve would use, http://${host.default}:${port.default}${MCP_PATH})`,
    )
    .option(
      '--config <file>',
      'mint for the server this config runs: its data dir, host and port (TOOLGATE_CONFIG; default ./toolgate.config.*; without one, the default data dir)',
    )
    .action(async (raw: Record<string, string | undefined>) => {
      const { runTokenCommand } = await import('./token-run.ts');
      await runTokenCommand(raw);
    });
}
