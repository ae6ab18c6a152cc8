/**
 * The evaluation harness as a toolgate extension (docs/extensions.md): the `toolgate eval` and
 * `toolgate contract release` commands. package.json declares this module; the CLI loads it only for
 * those commands, and the commands load the harness (and its model SDKs) only when they run. It
 * imports toolgate's types alone, so `toolgate eval --help` loads no more than these definitions.
 */
import type { ToolgateExtension } from 'toolgate';
import { contractReleaseCommand } from './cli/contract-release-command.ts';
import { evalCommand } from './cli/eval-command.ts';

const extension: ToolgateExtension = {
  name: '@toolgate/eval',
  commands: [evalCommand, contractReleaseCommand],
};
export default extension;
