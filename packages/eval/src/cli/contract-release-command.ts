import type { ExtensionCommand } from 'toolgate';
import type { ReleaseFlags } from './contract-release-run.ts';

/** `toolgate contract release`: a release record from the served contract and the evaluation that measured it. */
export const contractReleaseCommand: ExtensionCommand = {
  path: ['contract', 'release'],
  description:
    'Write a release record: the contract, the evaluation that measured it, who approved it and the ' +
    'previous contract to roll back to, with the changes since it classified. Refuses (exit 2, writes ' +
    'nothing) when the results measured another contract or missed a threshold, unless --override.',
  options: [
    {
      flags: '--results <file>',
      description: "the evaluation's results.json (or its directory)",
      required: true,
    },
    { flags: '--approved-by <name>', description: 'who approved the release', required: true },
    {
      flags: '--out <file>',
      description: 'the record to write (e.g. releases/1.4.0.json); never overwritten',
      required: true,
    },
    { flags: '--contract <file>', description: 'the contract released (default: the served tools)' },
    {
      flags: '--previous <file>',
      description: 'the contract to roll back to (default: none, a first release)',
    },
    {
      flags: '--config <file>',
      description: 'the tools of this config module (TOOLGATE_CONFIG; default ./toolgate.config.*)',
    },
    {
      flags: '--min-success-rate <r>',
      description: 'least share of trials passed, 0..1 (not for adversarial runs)',
      default: '1',
    },
    {
      flags: '--override <reason>',
      description: 'release despite the refusals; the reason and the refusals are recorded',
    },
  ],
  async run(options, context) {
    const { runContractRelease } = await import('./contract-release-run.ts');
    return runContractRelease(options as unknown as ReleaseFlags, context);
  },
};
