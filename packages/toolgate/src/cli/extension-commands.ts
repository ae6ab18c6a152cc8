import { type Command, Option } from 'commander';
import { resolveCommandConfig } from '../config/discover-config.ts';
import type {
  ExtensionCommand,
  ExtensionCommandContext,
  ToolgateExtension,
} from '../config/toolgate-extension.ts';
import { guarded } from './guarded.ts';

const HARNESS_MISSING =
  'the evaluation harness is not installed; install it with: npm install --save-dev @toolgate/eval';

/**
 * Commands users type that an installed package provides (docs/extensions.md): when none does, the
 * command still exists and says, in one line (exit 2), what to install.
 */
const EXPECTED: readonly { readonly path: readonly string[]; readonly missing: string }[] = [
  { path: ['eval'], missing: HARNESS_MISSING },
  { path: ['contract', 'release'], missing: HARNESS_MISSING },
];

/** The command words of an argument list: those before the first option, at most two. */
function commandWords(args: readonly string[]): string[] {
  const words: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  return words;
}

/** The command at `path` below `program`, if registered. */
function commandAt(program: Command, path: readonly string[]): Command | undefined {
  let at: Command | undefined = program;
  for (const word of path) at = at?.commands.find((c) => c.name() === word);
  return at;
}

/**
 * Whether the command words ask for a declared command ("contract release"): to run it (its words, then
 * perhaps arguments) or to list it (a prefix of them, or no words at all for `toolgate --help`).
 */
function asks(words: readonly string[], declared: readonly string[]): boolean {
  return words.every((word, index) => declared[index] === undefined || declared[index] === word);
}

/**
 * Registers the extension commands `args` (the arguments after `toolgate`) may run or list. Nothing is
 * read for a command toolgate has itself, and only the extensions that declare the asked command are
 * loaded, so other commands start as fast as without extensions.
 */
export async function registerExtensionCommands(program: Command, args: readonly string[]): Promise<void> {
  if (args.includes('-V') || args.includes('--version')) return;
  const words = commandWords(args);
  const own = commandAt(program, words);
  if (own !== undefined && own !== program && own.commands.length === 0) return;
  const { declaredExtensions, loadExtension } = await import('../extensions/installed-extensions.ts');
  for (const declared of declaredExtensions()) {
    if (!declared.commands.some((c) => asks(words, c.split(' ')))) continue;
    let extension: ToolgateExtension;
    try {
      extension = await loadExtension(declared);
    } catch (error) {
      // Said in one line; the command it declares ends there, a listing goes on without it.
      process.stderr.write(`toolgate: ${error instanceof Error ? error.message : String(error)}\n`);
      if (declared.commands.includes(words.join(' '))) process.exit(2);
      continue;
    }
    for (const command of extension.commands ?? []) {
      if (asks(words, command.path) && commandAt(program, command.path) === undefined)
        registerCommand(program, command);
    }
  }
  for (const expected of EXPECTED) {
    if (asks(words, expected.path) && commandAt(program, expected.path) === undefined)
      registerMissing(program, expected.path, expected.missing);
  }
}

/** The command below `program` at `path` but its last word, each missing one created. */
function parentOf(program: Command, path: readonly string[]): Command {
  let at = program;
  for (const word of path.slice(0, -1)) {
    at = at.commands.find((c) => c.name() === word) ?? at.command(word);
  }
  return at;
}

function registerCommand(program: Command, spec: ExtensionCommand): void {
  const name = spec.path.join(' ');
  const command = parentOf(program, spec.path)
    .command(spec.path[spec.path.length - 1]!)
    .description(spec.description);
  for (const flag of spec.options) {
    const option = new Option(flag.flags, flag.description);
    if (flag.choices) option.choices(flag.choices);
    if (flag.env) option.env(flag.env);
    if (flag.default !== undefined) option.default(flag.default);
    if (flag.required) option.makeOptionMandatory();
    command.addOption(option);
  }
  command.action(async (options: Record<string, unknown>, self: Command) =>
    guarded(name, async () => {
      process.exitCode = await spec.run(options, commandContext(name, self));
    }),
  );
}

function registerMissing(program: Command, path: readonly string[], missing: string): void {
  const name = path.join(' ');
  parentOf(program, path)
    .command(path[path.length - 1]!)
    .description(`(not installed: ${missing.replace(/^.*install it with: /, '')})`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      process.stderr.write(`toolgate ${name}: ${missing}\n`);
      process.exitCode = 2;
    });
}

/** What the framework lends a running extension command. */
function commandContext(name: string, self: Command): ExtensionCommandContext {
  return {
    command: name,
    optionSource(key) {
      const source: string | undefined = self.getOptionValueSource(key);
      return (['cli', 'env', 'default'] as const).find((known) => known === source);
    },
    configFile(flag) {
      return resolveCommandConfig(name, flag);
    },
    async loadProject(file) {
      const { servedModules } = await import('./served-modules.ts');
      const served = await servedModules(file, name);
      return { modules: served.modules, config: served.settings, file: served.file };
    },
    async loadContract(file, configFlag) {
      const { loadContract } = await import('../contract-artifacts/served-contract.ts');
      const { servedContractLoader } = await import('./served-contract-loader.ts');
      return loadContract(file, servedContractLoader(name, configFlag));
    },
  };
}
