import { Command } from 'commander';
import { registerContractCommand } from './contract-command.ts';
import { registerEvalCommand } from './eval-command.ts';
import { registerLintCommand } from './lint-command.ts';
import { registerOperationsCommand } from './operations-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerTokenCommand } from './token-command.ts';

/** The toolgate command. Each subcommand lives in its own file and registers itself here. */
const program = new Command('toolgate')
  .description('A gateway that exposes business operations to AI agents as safe MCP tools.')
  .showHelpAfterError();

registerServeCommand(program);
registerTokenCommand(program);
registerContractCommand(program);
registerLintCommand(program);
registerOperationsCommand(program);
registerEvalCommand(program);

await program.parseAsync(process.argv);
