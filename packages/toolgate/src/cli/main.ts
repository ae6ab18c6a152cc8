import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerContractCommand } from './contract-command.ts';
import { registerDemoCommand } from './demo-command.ts';
import { registerExtensionCommands } from './extension-commands.ts';
import { registerInitCommand } from './init-command.ts';
import { registerLintCommand } from './lint-command.ts';
import { registerOperationsCommand } from './operations-command.ts';
import { registerPolicyCommand } from './policy-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerTokenCommand } from './token-command.ts';

// Two levels below the package root both in src/ and in dist/.
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/**
 * The toolgate command. Each subcommand registers itself from its own file and loads the code that
 * does the work only when it runs, so `--version`, `token` and `lint` start fast; an installed
 * package's commands are looked for only when the arguments name one toolgate does not have.
 */
const program = new Command('toolgate')
  .description('A gateway that exposes business operations to AI agents as safe MCP tools.')
  .version(version, '-V, --version', 'print the toolgate version')
  .showHelpAfterError();

registerInitCommand(program);
registerServeCommand(program);
registerTokenCommand(program);
registerContractCommand(program);
registerLintCommand(program);
registerOperationsCommand(program);
registerPolicyCommand(program);
registerDemoCommand(program);
// Commands installed packages provide (toolgate eval, contract release), read only when asked for.
await registerExtensionCommands(program, process.argv.slice(2));

// `toolgate contract docs | head` closes the pipe early: that is the reader being done, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

await program.parseAsync(process.argv);
