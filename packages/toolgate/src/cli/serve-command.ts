import type { Command } from 'commander';
import { helpLine } from '../config/serve-setting-words.ts';
import { SERVE_SETTING_LIST } from '../config/serve-settings.ts';
import type { RawServeOptions } from './serve-options.ts';

/** `toolgate serve`: the gateway over Streamable HTTP (default) or stdio. The work loads only when run. */
export function registerServeCommand(program: Command): void {
  const serve = program
    .command('serve')
    .description('Serve the tools over MCP Streamable HTTP (or stdio with --stdio).')
    .option(
      '--config <file>',
      'serve the tools of this config module (TOOLGATE_CONFIG; default ./toolgate.config.*)',
    );
  // Every other option is a row of the settings table, so the flag, its variable and its default
  // printed here are the ones the resolution uses.
  for (const [, setting] of SERVE_SETTING_LIST) {
    const flags = setting.placeholder === undefined ? setting.flag : `${setting.flag} ${setting.placeholder}`;
    serve.option(flags, helpLine(setting));
  }
  serve.action(async (raw: RawServeOptions) => {
    const { resolveCommandConfig } = await import('../config/discover-config.ts');
    const config = resolveCommandConfig('serve', raw.config);
    const { runServe } = await import('./serve-run.ts');
    await runServe({ ...raw, config });
  });
}
