import type { Command } from 'commander';

/** `toolgate init [dir]`: writes a runnable project of a read and a write tool into an empty folder. */
export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(
      'Write a runnable project into DIR (default: this folder, which must be empty): a config, a read and a write tool over a small HTTP service, a test, lint/contract/test scripts and a README.',
    )
    .argument('[dir]', 'the folder to create or fill; refused when it is not empty', '.')
    .action(async (dir: string) => {
      const { runInitCommand } = await import('./init-run.ts');
      process.exitCode = runInitCommand(dir);
    });
}
